"""Entering only the final levels (SPEC 6 table page: "or only the final levels when the preset
allows"): the same answer as the deals that lead to those levels."""

import pytest

from rules_engine import api
from rules_engine.errors import RulesError

DEALS = [{"finish": ["E", "W", "S", "N"]}, {"finish": ["S", "E", "N", "W"]}]  # EW 5, NS 4


def test_final_levels_score_like_the_deals_that_reach_them():
    by_deals = api.score({"game": "guandan", "preset": "guandan-suzhou-2016", "deals": DEALS})
    by_levels = api.score(
        {"game": "guandan", "preset": "guandan-suzhou-2016", "final_levels": {"EW": "5", "NS": "4"}}
    )
    for key in ("winner", "levels", "level_difference", "passed_a", "match_points"):
        assert by_levels[key] == by_deals[key]
    assert by_levels["entry"] == "final_levels" and by_levels["trace"] == []


def test_final_levels_equal_is_a_draw_on_the_national_preset():
    answer = api.score(
        {
            "game": "guandan",
            "preset": "guandan-national-2017",
            "final_levels": {"EW": "K", "NS": "K"},
        }
    )
    assert answer["winner"] is None and answer["match_points"] == {"EW": 2, "NS": 2}


def test_final_levels_passing_a_counts_13_and_wins_in_tractor():
    answer = api.score(
        {"game": "tractor", "final_levels": {"EW": "A", "NS": "K"}, "passed_a": "EW"}
    )
    assert answer["winner"] == "EW" and answer["level_difference"] == 2
    assert answer["match_points"] == {"EW": 2, "NS": 0}


def test_final_levels_side_that_passed_a_must_stand_on_a():
    with pytest.raises(RulesError) as err:
        api.score({"game": "guandan", "final_levels": {"EW": "K", "NS": "2"}, "passed_a": "EW"})
    assert err.value.field == "passed_a"


def test_final_levels_refused_when_the_event_switches_the_setting_off():
    with pytest.raises(RulesError) as err:
        api.score(
            {
                "game": "guandan",
                "final_levels": {"EW": "5", "NS": "4"},
                "settings": {"final_levels_entry": False},
            }
        )
    assert err.value.field == "final_levels"


def test_final_levels_and_deals_together_are_refused():
    with pytest.raises(RulesError, match="not both"):
        api.score({"game": "guandan", "deals": DEALS, "final_levels": {"EW": "5", "NS": "4"}})


@pytest.mark.parametrize(
    "levels", [{"EW": "5"}, {"EW": "5", "NS": "1"}, {"EW": "Z", "NS": "2"}, "5:4"]
)
def test_final_levels_bad_values_name_the_field(levels):
    with pytest.raises(RulesError) as err:
        api.score({"game": "tractor", "final_levels": levels})
    assert err.value.field.startswith("final_levels")
