"""Tractor deal and match scoring (SPEC 4.3, 4.5)."""

import pytest

from rules_engine.api import score
from rules_engine.errors import RulesError
from rules_engine.tractor import deal_outcome


def match(*deals, **record):
    return score({"game": "tractor", "preset": "tractor", "deals": list(deals)} | record)


def deal(points, dealer=None, **fields):
    return {"defender_points": points} | ({"dealer": dealer} if dealer else {}) | fields


@pytest.mark.parametrize(
    ("points", "outcome"),
    [
        (0, ("dealer", 3)),
        (5, ("dealer", 2)),
        (55, ("dealer", 2)),
        (60, ("dealer", 1)),
        (115, ("dealer", 1)),
        (120, ("defenders", 0)),
        (175, ("defenders", 0)),
        (180, ("defenders", 1)),
        (235, ("defenders", 1)),
        (240, ("defenders", 2)),
        (295, ("defenders", 2)),
        (300, ("defenders", 3)),
        (420, ("defenders", 3)),
    ],
)
def test_deal_table_in_sixty_point_steps(points, outcome):
    assert deal_outcome(points) == outcome


def test_spec_example_bottom_first_then_throw_penalty():
    answer = match(
        deal(
            85,
            "EW",
            bottom_points=15,
            bottom_multiplier=4,
            failed_throws=[{"side": "NS", "cards": 2}],
        )
    )
    entry = answer["trace"][0]
    assert (entry["bottom"], entry["throw_penalty"], entry["total_points"]) == (60, -20, 125)
    assert entry["result"] == "defenders_take_over" and entry["next_dealer"] == "NS"


def test_bottom_points_are_multiplied_by_the_last_tricks_form():
    assert (
        match(deal(60, "EW", bottom_points=10, bottom_multiplier=8))["trace"][0]["total_points"]
        == 140
    )


def test_dealer_side_failed_throw_adds_to_the_defenders():
    entry = match(deal(100, "EW", failed_throws=[{"side": "EW", "cards": 2}]))["trace"][0]
    assert entry["total_points"] == 120 and entry["result"] == "defenders_take_over"


def test_defender_failed_throw_is_taken_off_and_floored_at_zero():
    entry = match(deal(10, "EW", failed_throws=[{"side": "NS", "cards": 3}]))["trace"][0]
    assert entry["total_points"] == 0
    assert match(deal(10, "EW", failed_throws=[{"side": "NS", "cards": 3}]))["levels"]["EW"] == "5"


def test_dealer_keeping_the_deal_goes_up():
    answer = match(deal(0, "EW"), deal(70))
    assert answer["levels"] == {"EW": "6", "NS": "2"} and answer["winner"] == "EW"
    assert answer["level_difference"] == 4 and answer["match_points"] == {"EW": 2, "NS": 0}


def test_defenders_take_over_and_go_up_from_180():
    answer = match(deal(180, "EW"), deal(250))
    assert answer["levels"] == {"EW": "4", "NS": "3"}
    assert [t["dealer"] for t in answer["trace"]] == ["EW", "NS"]


def test_later_deals_derive_the_dealer():
    answer = match(deal(130, "EW"), deal(0), deal(0, "NS"))
    assert [t["dealer"] for t in answer["trace"]] == ["EW", "NS", "NS"]


def test_a_dealer_contradicting_the_derived_one_is_an_error():
    with pytest.raises(RulesError) as err:
        match(deal(130, "EW"), deal(0, "EW"))
    assert err.value.field == "deals[1].dealer"


def test_first_deal_must_name_its_dealer():
    with pytest.raises(RulesError) as err:
        match(deal(0))
    assert err.value.field == "deals[0].dealer"


@pytest.mark.parametrize("points", [7, -5, 305, "85", None, True])
def test_defender_points_are_multiples_of_five_from_0_to_300(points):
    with pytest.raises(RulesError) as err:
        match(deal(0, "EW"), deal(points))
    assert err.value.field == "deals[1].defender_points"
    assert "multiple of 5" in err.value.message


@pytest.mark.parametrize("multiplier", [None, 3, 1, 0])
def test_bottom_multiplier_is_a_power_of_two(multiplier):
    with pytest.raises(RulesError) as err:
        match(deal(0, "EW", bottom_points=10, bottom_multiplier=multiplier))
    assert err.value.field == "deals[0].bottom_multiplier"


def test_levels_stop_at_ace():
    answer = match(*[deal(0, "EW")] + [deal(0)] * 3)  # 2 -> 5 -> 8 -> J -> A
    assert answer["levels"]["EW"] == "A" and answer["passed_a"] is None


def test_dealer_standing_on_ace_keeping_the_deal_passes_a_and_wins():
    answer = match(*[deal(0, "EW")] + [deal(0)] * 3 + [deal(115)])
    assert answer["passed_a"] == "EW" and answer["winner"] == "EW"
    assert answer["level_difference"] == 13 and answer["levels"]["EW"] == "A"


def test_reaching_ace_by_taking_over_is_not_passing_a():
    answer = match(deal(0, "NS"), deal(0), deal(0), deal(300), deal(0), deal(0), deal(300))
    # NS: 2->5->8->J; EW takes over +3: 5; keeps: 8, J; NS takes over +3 onto A
    assert answer["levels"] == {"EW": "J", "NS": "A"} and answer["passed_a"] is None


def test_no_deal_after_the_match_was_won():
    with pytest.raises(RulesError) as err:
        match(*[deal(0, "EW")] + [deal(0)] * 4 + [deal(0)])
    assert err.value.field == "deals[5]"


def test_equal_levels_at_time_are_a_draw():
    answer = match(deal(130, "EW"), deal(130))
    assert answer["winner"] is None and answer["match_points"] == {"EW": 1, "NS": 1}


def test_forfeit_gives_the_forfeit_points_and_no_levels():
    answer = score({"game": "tractor", "deals": [], "forfeit": "NS"})
    assert answer["winner"] == "EW" and answer["levels"] is None
    assert answer["match_points"] == {"EW": 2, "NS": 0}


def test_deal_table_is_a_event_setting():
    table = [[0, "dealer", 2], [80, "dealer", 1], [160, "defenders", 0]]
    answer = match(deal(70, "EW"), settings={"tractor_deal_table": table})
    assert answer["levels"]["EW"] == "4"


def test_empty_record_is_an_error():
    with pytest.raises(RulesError):
        match()


def test_level_difference_of_an_8_to_2_win_is_6_and_of_a_3_to_6_loss_is_minus_3():
    answer = match(deal(0, "EW"), deal(0), deal(130))  # EW 2 -> 5 -> 8, then loses the deal
    assert answer["levels"] == {"EW": "8", "NS": "2"} and answer["level_difference"] == 6
    answer = match(deal(60, "NS"), deal(0), deal(180))  # NS 3 -> 6, EW takes over +1: 3
    assert answer["levels"] == {"EW": "3", "NS": "6"} and answer["level_difference"] == -3


# --- the 300-point rule (SPEC 4.3): trick points + raw bottom points never exceed 300 ---


def test_300_point_rule_refuses_trick_points_plus_raw_bottom_over_300():
    record = {
        "game": "tractor",
        "preset": "tractor",
        "deals": [
            {"dealer": "EW", "defender_points": 290, "bottom_points": 40, "bottom_multiplier": 2}
        ],
    }
    with pytest.raises(RulesError) as refused:
        score(record)
    assert refused.value.field == "deals[0].bottom_points"
    assert "300" in refused.value.message and "330" in refused.value.message
    assert "300 分" in refused.value.localized("zh-hans")


def test_300_point_rule_applies_the_multiplier_after_the_check():
    # 260 + 40 = 300 raw: allowed, and the multiplied total (260 + 80) is then scored
    record = {
        "game": "tractor",
        "preset": "tractor",
        "deals": [
            {"dealer": "EW", "defender_points": 260, "bottom_points": 40, "bottom_multiplier": 2}
        ],
    }
    assert score(record)["trace"][0]["total_points"] == 340


def test_300_point_rule_names_the_deal_that_breaks_it():
    record = {
        "game": "tractor",
        "preset": "tractor",
        "deals": [
            {"dealer": "EW", "defender_points": 100},
            {"defender_points": 295, "bottom_points": 10, "bottom_multiplier": 2},
        ],
    }
    with pytest.raises(RulesError) as refused:
        score(record)
    assert refused.value.field == "deals[1].bottom_points"
