"""Guandan deal and match scoring (SPEC 4.2, 4.5)."""

import pytest

from rules_engine.errors import RulesError
from rules_engine.guandan import deal_result, score_match

DOUBLE_UP_EW = ["E", "W"]  # +3 for EW
ONE_UP_EW = ["E", "S", "N", "W"]  # E first, W last: +1
DOUBLE_UP_NS = ["S", "N"]
TWO_UP_NS = ["N", "E", "S", "W"]


def match(*finishes, preset="guandan-suzhou-2016", **record):
    deals = [{"finish": list(f)} for f in finishes]
    return score_match({"game": "guandan", "preset": preset, "deals": deals} | record)


def test_double_up_goes_up_three_levels():
    assert deal_result(["E", "W"]).up == 3


def test_partner_third_goes_up_two_levels():
    assert deal_result(["S", "E", "N", "W"]).up == 2


def test_partner_last_goes_up_one_level():
    assert deal_result(["E", "S", "N", "W"]).up == 1
    assert deal_result(["E", "S", "N"]).up == 1  # the last seat may be left off


def test_finish_of_two_non_partners_cannot_decide_the_deal():
    with pytest.raises(RulesError, match="does not say where W"):
        deal_result(["E", "S"])


def test_a_seat_twice_is_an_error():
    with pytest.raises(RulesError, match="seat E appears twice"):
        deal_result(["E", "S", "E"])


def test_unknown_seat_is_an_error():
    with pytest.raises(RulesError, match="unknown seat 'X'"):
        deal_result(["E", "X"])


def test_spec_example_suzhou_record_scores_5_to_4_and_11_to_9():
    answer = match(["E", "W", "S", "N"], ["S", "E", "N", "W"])
    assert answer["winner"] == "EW"
    assert answer["levels"] == {"EW": "5", "NS": "4"}
    assert answer["level_difference"] == 1
    assert answer["passed_a"] is None
    assert answer["match_points"] == {"EW": 11, "NS": 9}
    assert answer["deals_won"] == {"EW": 1, "NS": 1}
    assert [t["level_played"] for t in answer["trace"]] == ["2", "5"]
    assert [t["played_by"] for t in answer["trace"]] == [None, "EW"]


def test_level_played_is_that_of_the_side_that_won_the_last_deal():
    answer = match(DOUBLE_UP_EW, DOUBLE_UP_NS, ONE_UP_EW)
    assert [t["level_played"] for t in answer["trace"]] == ["2", "5", "5"]
    assert [t["played_by"] for t in answer["trace"]] == [None, "EW", "NS"]


def test_levels_never_jump_past_a():
    answer = match(*[DOUBLE_UP_EW] * 4)
    assert answer["levels"]["EW"] == "A"
    assert answer["passed_a"] is None


def test_passing_a_needs_first_out_and_partner_not_last_on_own_a_deal():
    answer = match(*[DOUBLE_UP_EW] * 4, ["E", "N", "W", "S"])
    assert answer["passed_a"] == "EW"
    assert answer["winner"] == "EW"
    assert answer["level_difference"] == 13
    assert answer["levels"] == {"EW": "A", "NS": "2"}
    assert answer["match_points"] == {"EW": 20, "NS": 0}
    assert answer["trace"][-1]["events"] == ["passed_a"]


def test_winning_a_deal_at_the_opponents_level_never_passes_a():
    # EW reach A, NS win a deal, then EW win with a double up at NS's level.
    answer = match(*[DOUBLE_UP_EW] * 4, DOUBLE_UP_NS, DOUBLE_UP_EW)
    assert answer["passed_a"] is None
    assert answer["levels"] == {"EW": "A", "NS": "5"}
    assert answer["trace"][-1]["played_by"] == "NS"


def test_first_out_with_partner_last_on_own_a_deal_is_a_failed_attempt():
    answer = match(*[DOUBLE_UP_EW] * 4, ONE_UP_EW)
    assert answer["passed_a"] is None
    assert answer["trace"][-1]["failed_a"]["EW"] == 1
    assert answer["trace"][-1]["events"] == ["failed_a:EW"]


def test_losing_own_a_deal_is_a_failed_attempt():
    answer = match(*[DOUBLE_UP_EW] * 4, TWO_UP_NS)
    assert answer["trace"][-1]["failed_a"] == {"EW": 1, "NS": 0}


def test_suzhou_never_drops_back_repeat_a_until_passed_or_time():
    reach_a = [DOUBLE_UP_EW] * 4
    fails = [ONE_UP_EW] * 5
    answer = match(*reach_a, *fails)
    assert answer["levels"]["EW"] == "A"
    assert answer["trace"][-1]["failed_a"]["EW"] == 5


def test_national_third_failed_attempt_drops_back_to_2_and_restarts_count():
    reach_a = [DOUBLE_UP_EW] * 4
    answer = match(*reach_a, ONE_UP_EW, ONE_UP_EW, ONE_UP_EW, preset="guandan-national-2017")
    assert answer["levels"]["EW"] == "2"
    assert answer["trace"][-1]["failed_a"]["EW"] == 0
    assert answer["trace"][-1]["events"] == ["failed_a:EW", "dropped_back:EW"]
    assert [t["levels_after"]["EW"] for t in answer["trace"][-3:]] == ["A", "A", "2"]


def test_drop_back_limit_is_a_event_setting():
    reach_a = [DOUBLE_UP_EW] * 4
    answer = match(*reach_a, ONE_UP_EW, settings={"fail_a_limit": 1})
    assert answer["levels"]["EW"] == "2"


def test_deals_after_passing_a_are_an_error_naming_the_deal():
    with pytest.raises(RulesError, match="already over") as err:
        match(*[DOUBLE_UP_EW] * 5, DOUBLE_UP_NS)
    assert err.value.field == "deals[5]"


def test_at_time_the_higher_level_wins():
    answer = match(DOUBLE_UP_EW, TWO_UP_NS, TWO_UP_NS)
    assert answer["levels"] == {"EW": "5", "NS": "6"}
    assert answer["winner"] == "NS"
    assert answer["level_difference"] == -1
    assert answer["match_points"] == {"EW": 9, "NS": 11}


def test_at_time_equal_levels_are_a_draw():
    answer = match(DOUBLE_UP_EW, DOUBLE_UP_NS, preset="guandan-national-2017")
    assert answer["winner"] is None
    assert answer["match_points"] == {"EW": 2, "NS": 2}


def test_national_win_scores_3_to_1():
    assert match(DOUBLE_UP_EW, preset="guandan-national-2017")["match_points"] == {
        "EW": 3,
        "NS": 1,
    }


def test_forfeit_gives_the_preset_forfeit_score_and_no_levels():
    answer = match(forfeit="NS")
    assert answer["winner"] == "EW"
    assert answer["match_points"] == {"EW": 17, "NS": 0}
    assert answer["levels"] is None and answer["level_difference"] is None


def test_both_absent_score_no_show_points():
    answer = match(forfeit="both", preset="guandan-national-2017")
    assert answer["winner"] is None
    assert answer["match_points"] == {"EW": 0, "NS": 0}


def test_forfeit_with_deals_or_unknown_side_is_an_error():
    with pytest.raises(RulesError, match="forfeited match has no deals"):
        match(DOUBLE_UP_EW, forfeit="NS")
    with pytest.raises(RulesError, match="forfeit must be EW, NS, both or null"):
        match(forfeit="SN")


def test_bad_deal_is_an_error_naming_the_deal():
    with pytest.raises(RulesError) as err:
        match(DOUBLE_UP_EW, ["E", "S"])
    assert err.value.field == "deals[1].finish"
    assert "deals[1].finish" in err.value.message
    with pytest.raises(RulesError, match="deals\\[0\\] must be an object"):
        score_match({"game": "guandan", "deals": [["E", "W"]]})


def test_default_preset_is_suzhou_and_a_preset_of_another_game_is_refused():
    assert score_match({"game": "guandan", "deals": []})["preset"] == "guandan-suzhou-2016"
    with pytest.raises(RulesError, match="is for tractor"):
        score_match({"game": "guandan", "preset": "tractor", "deals": []})
