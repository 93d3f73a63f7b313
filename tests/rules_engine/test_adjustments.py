"""Effects of rulings on match results, applied by the rules engine (SPEC 5)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_engine import adjustments
from rules_engine.api import score as plain_score
from rules_engine.errors import RulesError

GUANDAN = {
    "game": "guandan",
    "preset": "guandan-suzhou-2016",
    "deals": [{"finish": ["E", "W", "S", "N"]}, {"finish": ["S", "E", "N", "W"]}],
    "forfeit": None,
}  # EW 5, NS 4: EW wins 11:9
TRACTOR = {
    "game": "tractor",
    "preset": "tractor",
    "deals": [{"dealer": "EW", "defender_points": 85}],
}  # EW 3, NS 2: EW wins 2:0
CHENGYU = {
    "game": "chengyu",
    "preset": "chengyu",
    "deals": [{"tricks": {"EW": 8, "NS": 5}}, {"tricks": {"EW": 6, "NS": 7}}],
}  # 1 deal each, tricks 14:12: EW wins 2:0


def adjusted(record, **adjustment):
    return adjustments.score(adjustments.add_adjustment(record, adjustment))


def test_record_without_adjustments_scores_as_the_engine_does():
    for record in (GUANDAN, TRACTOR, CHENGYU):
        assert adjustments.score(record) == plain_score(record)


def test_level_deduction_lowers_the_offenders_level_and_rescores():
    answer = adjusted(GUANDAN, type="level_deduction", side="EW", levels=1, ruling=7)
    assert answer["levels"] == {"EW": "4", "NS": "4"}
    assert answer["level_difference"] == 0
    assert answer["winner"] is None
    assert answer["match_points"] == {"EW": 10, "NS": 10}
    assert answer["unadjusted"] == {"winner": "EW", "match_points": {"EW": 11, "NS": 9}}
    assert answer["adjustments"][0]["ruling"] == 7


def test_level_deduction_can_change_the_winner():
    answer = adjusted(GUANDAN, type="level_deduction", side="EW", levels=3)
    assert answer["levels"] == {"EW": "2", "NS": "4"}
    assert answer["winner"] == "NS"
    assert answer["match_points"] == {"EW": 8, "NS": 12}


def test_level_deduction_never_goes_below_two():
    answer = adjusted(GUANDAN, type="level_deduction", side="NS", levels=12)
    assert answer["levels"]["NS"] == "2"


def test_opponent_level_up_raises_the_opponents():
    answer = adjusted(GUANDAN, type="opponent_level_up", side="EW", levels=2)
    assert answer["levels"] == {"EW": "5", "NS": "6"}
    assert answer["winner"] == "NS"
    assert answer["level_difference"] == -1
    assert answer["match_points"] == {"EW": 9, "NS": 11}


def test_opponent_level_up_never_passes_a():
    answer = adjusted(GUANDAN, type="opponent_level_up", side="EW", levels=12)
    assert answer["levels"]["NS"] == "A"
    assert answer["passed_a"] is None


def test_level_deduction_of_a_side_that_passed_a_takes_the_pass_away():
    record = {
        "game": "guandan",
        "deals": [{"finish": ["E", "W"]}] * 4 + [{"finish": ["E", "W"]}],
    }
    assert plain_score(record)["passed_a"] == "EW"
    answer = adjusted(record, type="level_deduction", side="EW", levels=1)
    assert answer["passed_a"] is None
    assert answer["levels"]["EW"] == "A"
    assert answer["match_points"] == {"EW": 20, "NS": 0}  # still 12 levels ahead


def test_level_deduction_in_tractor_uses_the_win_draw_loss_points():
    answer = adjusted(TRACTOR, type="level_deduction", side="EW", levels=1)
    assert answer["levels"] == {"EW": "2", "NS": "2"}
    assert answer["match_points"] == {"EW": 1, "NS": 1}


def test_national_preset_points_follow_a_level_deduction():
    record = dict(GUANDAN, preset="guandan-national-2017")
    answer = adjusted(record, type="level_deduction", side="EW", levels=2)
    assert answer["winner"] == "NS"
    assert answer["match_points"] == {"EW": 1, "NS": 3}


def test_match_loss_scores_as_a_forfeit_by_the_offender():
    answer = adjusted(GUANDAN, type="match_loss", side="EW", ruling=3)
    assert answer["winner"] == "NS"
    assert answer["forfeit"] == "EW"
    assert answer["match_loss"] == "EW"
    assert answer["match_points"] == {"EW": 0, "NS": 17}
    assert answer["trace"]  # the deals played stay readable


PASSED_A = {
    "game": "guandan",
    "preset": "guandan-suzhou-2016",
    "deals": [{"finish": ["E", "W"]}] * 5,
}


def test_match_loss_gives_the_side_not_penalised_the_better_of_what_it_earned_and_the_forfeit():
    # SPEC §5: EW earned 20 : 0; the 判负 against NS keeps it (the forfeit would be 17 : 0)
    answer = adjusted(PASSED_A, type="match_loss", side="NS", ruling=4)
    assert answer["match_points"] == {"EW": 20, "NS": 0}
    assert answer["winner"] == "EW" and answer["match_loss"] == "NS"
    assert answer["forfeit"] is None  # 判负, never 弃权
    assert answer["passed_a"] == "EW" and answer["match_loss_score"] == "earned"
    # EW earned 11 : 9: the forfeit's 17 : 0 is better; NS gets the forfeit's losing score
    answer = adjusted(GUANDAN, type="match_loss", side="NS")
    assert answer["match_points"] == {"EW": 17, "NS": 0}
    assert answer["match_loss_score"] == "forfeit"
    # national 级差分: EW earned 13 + 13 = 26 (passed A), the forfeit would give 20 : 6
    national = dict(PASSED_A, preset="guandan-national")
    answer = adjusted(national, type="match_loss", side="NS")
    assert answer["match_points"]["EW"] == 2 and answer["level_points"] == {"EW": 26, "NS": 6}


def test_match_loss_in_tractor_and_chengyu_scores_the_forfeit_points():
    assert adjusted(TRACTOR, type="match_loss", side="EW")["match_points"] == {"EW": 0, "NS": 2}
    assert adjusted(CHENGYU, type="match_loss", side="NS")["match_points"] == {"EW": 2, "NS": 0}


def test_match_loss_for_both_sides_scores_no_show_points():
    record = adjustments.add_adjustment(GUANDAN, {"type": "match_loss", "side": "EW"})
    answer = adjusted(record, type="match_loss", side="NS")
    assert answer["forfeit"] == "both"
    assert answer["match_points"] == {"EW": 0, "NS": 0}


def test_trick_transfer_changes_the_deal():
    answer = adjusted(CHENGYU, type="trick_to_opponents", side="NS", deal=2)
    assert answer["trace"][1]["tricks"] == {"EW": 7, "NS": 6}
    assert answer["deals_won"] == {"EW": 2, "NS": 0}
    assert answer["unadjusted"]["winner"] == "EW"


def test_trick_transfer_can_change_the_winner():
    answer = adjustments.score(
        adjustments.add_adjustment(
            adjustments.add_adjustment(
                CHENGYU, {"type": "trick_to_opponents", "side": "EW", "deal": 1}
            ),
            {"type": "trick_to_opponents", "side": "EW", "deal": 1},
        )
    )
    assert answer["trace"][0]["tricks"] == {"EW": 6, "NS": 7}
    assert answer["winner"] == "NS"
    assert answer["match_points"] == {"EW": 0, "NS": 2}
    assert answer["unadjusted"]["winner"] == "EW"


def test_round_lost_4_9_for_the_offender():
    # a 2-deal record lost 4:9 counts as the match's three deals 4:9 (SPEC 4.4; 成语 七)
    answer = adjusted(CHENGYU, type="round_lost", side="EW")
    assert [d["tricks"] for d in answer["trace"]] == [{"EW": 4, "NS": 9}] * 3
    assert answer["winner"] == "NS" and answer["tricks"] == {"EW": 12, "NS": 27}


def test_removing_the_rulings_adjustment_restores_the_original_result():
    record = adjustments.add_adjustment(GUANDAN, {"type": "match_loss", "side": "EW", "ruling": 5})
    record = adjustments.add_adjustment(
        record, {"type": "level_deduction", "side": "NS", "ruling": 6}
    )
    back = adjustments.remove_adjustments(record, 5)
    assert [a["ruling"] for a in back["adjustments"]] == [6]
    assert "adjustments" not in adjustments.remove_adjustments(back, 6)
    assert adjustments.score(adjustments.remove_adjustments(back, 6)) == plain_score(GUANDAN)


@pytest.mark.parametrize(
    "record, adjustment, field",
    [
        (CHENGYU, {"type": "level_deduction", "side": "EW"}, "adjustment.type"),
        (GUANDAN, {"type": "trick_to_opponents", "side": "EW", "deal": 1}, "adjustment.type"),
        (GUANDAN, {"type": "level_deduction", "side": "E"}, "adjustment.side"),
        (GUANDAN, {"type": "level_deduction", "side": "EW", "levels": 0}, "adjustment.levels"),
        (GUANDAN, "x", "adjustment"),
    ],
)
def test_bad_adjustment_names_the_field(record, adjustment, field):
    with pytest.raises(RulesError) as err:
        adjustments.add_adjustment(record, adjustment)
    assert err.value.field == field


def test_level_change_on_a_forfeited_match_is_refused():
    record = {"game": "guandan", "deals": [], "forfeit": "NS"}
    with pytest.raises(RulesError, match="no levels"):
        adjusted(record, type="level_deduction", side="EW")


def test_trick_transfer_from_a_side_without_tricks_is_refused():
    record = {"game": "chengyu", "deals": [{"tricks": {"EW": 13, "NS": 0}}]}
    with pytest.raises(RulesError, match="no trick left"):
        adjusted(record, type="trick_to_opponents", side="NS", deal=1)


@given(
    st.sampled_from(["EW", "NS"]),
    st.integers(min_value=1, max_value=12),
    st.sampled_from(["level_deduction", "opponent_level_up"]),
)
def test_a_level_ruling_never_helps_the_offender(side, levels, kind):
    before = plain_score(GUANDAN)["match_points"][side]
    after = adjusted(GUANDAN, type=kind, side=side, levels=levels)
    assert after["match_points"][side] <= before
    assert sum(after["match_points"].values()) == 20


def test_the_cli_and_api_score_a_record_with_a_ruling_adjustment():
    from rules_engine import api

    record = {
        "game": "guandan",
        "preset": "guandan-suzhou-2016",
        "deals": [{"finish": ["E", "W", "S", "N"]}, {"finish": ["S", "E", "N", "W"]}],
        "adjustments": [{"type": "match_loss", "side": "EW"}],
    }
    answer = api.score(record)
    assert answer["forfeit"] == "EW" and answer["match_points"] == {"EW": 0, "NS": 17}


# --- wrong tribute found after play began (national text): the offender is scored last ---


def wrong_tribute(seat, side, deal):
    return {"type": "wrong_tribute", "seat": seat, "side": side, "deal": deal, "ruling": 7}


def test_wrong_tribute_scores_the_offender_last_in_that_deal_and_rederives_the_result():
    plain = plain_score(GUANDAN)
    answer = adjustments.score(GUANDAN | {"adjustments": [wrong_tribute("S", "NS", 2)]})
    # deal 2 was S E N W (NS up 2); with S last it reads E N W S: EW's E first, W third: +2
    assert answer["trace"][1]["finish"][:4] == ["E", "N", "W", "S"]
    assert plain["levels"] == {"EW": "5", "NS": "4"}
    assert answer["levels"] == {"EW": "7", "NS": "2"} and answer["winner"] == "EW"
    assert answer["unadjusted"] == {
        "winner": plain["winner"],
        "match_points": plain["match_points"],
    }


def test_wrong_tribute_removed_gives_back_the_original_result():
    record = adjustments.add_adjustment(GUANDAN, wrong_tribute("S", "NS", 2))
    assert adjustments.score(adjustments.remove_adjustments(record, 7)) == plain_score(GUANDAN)


def test_wrong_tribute_needs_a_seat_of_the_offending_side_and_a_deal_of_the_record():
    with pytest.raises(RulesError) as err:
        adjustments.score(GUANDAN | {"adjustments": [wrong_tribute("E", "NS", 2)]})
    assert err.value.field == "adjustments[0].seat"
    with pytest.raises(RulesError) as err:
        adjustments.score(GUANDAN | {"adjustments": [wrong_tribute("S", "NS", 9)]})
    assert "no deal 9" in err.value.message
    with pytest.raises(RulesError):
        adjustments.score(TRACTOR | {"adjustments": [wrong_tribute("S", "NS", 1)]})
