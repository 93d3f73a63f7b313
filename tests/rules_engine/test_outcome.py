"""The engine's answers read in one place (rules_engine.outcome) and the table rules the
shell shows: seats, level names, level bounds of a ruling, forfeit records, bye points."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_engine import api
from rules_engine.adjustments import check_levels
from rules_engine.cards import LEVEL_NAMES
from rules_engine.errors import RulesError
from rules_engine.outcome import PARTS, PASSED_A_BONUS, Outcome, accumulated_levels
from rules_engine.presets import PRESETS, bye_points, forfeit_record, void_answer, void_record
from rules_engine.seating import SEAT_ORDER, seat_of


def guandan(finishes, preset="guandan-national-2017"):
    return api.score(
        {"game": "guandan", "preset": preset, "deals": [{"finish": f} for f in finishes]}
    )


def test_an_answer_is_read_from_both_sides():
    outcome = Outcome.from_answer(guandan([["E", "W"], ["E", "W"]]))
    assert outcome.counts and outcome.has_levels
    assert (outcome.level_ew, outcome.level_ns) == ("8", "2")
    assert outcome.winner == "EW" and outcome.result_for("EW") == "win"
    assert outcome.result_for("NS") == "loss"
    assert outcome.points("EW") == outcome.points_ew == 3


def test_accumulated_levels_are_the_own_level_index_plus_one_for_passing_a():
    assert PASSED_A_BONUS == 1
    assert accumulated_levels("2", False) == 0
    assert accumulated_levels("A", False) == 12
    assert accumulated_levels("A", True) == 13
    outcome = Outcome.from_parts(
        {"points_ew": 3, "points_ns": 0, "level_ew": "A", "level_ns": "5", "passed_a": "EW"}
    )
    assert (outcome.accumulated_levels("EW"), outcome.accumulated_levels("NS")) == (13, 3)


def test_a_void_or_missing_answer_does_not_count():
    for answer in (None, {}, {"void": True, "winner": None, "trace": []}, "x"):
        outcome = Outcome.from_answer(answer)
        assert not outcome.counts and outcome.result_for("EW") == "" and outcome.points_text == ""
    assert Outcome.from_answer({"void": True}).void


def test_a_forfeit_answer_reads_as_a_forfeit_win():
    answer = api.score({"game": "guandan", "deals": [], "forfeit": "NS"})
    outcome = Outcome.from_answer(answer)
    assert outcome.forfeit == "NS" and outcome.points_text == "17 : 0"
    assert not outcome.has_levels and outcome.accumulated_levels("EW") == 0


def test_a_draw_is_a_draw_for_both():
    outcome = Outcome.from_parts({"points_ew": 10, "points_ns": 10})
    assert outcome.result_for("EW") == outcome.result_for("NS") == "draw"


def test_parts_name_paths_every_answer_has_or_leaves_out():
    answer = guandan([["E", "W"]])
    for name, path in PARTS.items():
        if (
            name in ("deals_ew", "deals_ns", "tricks_ew", "tricks_ns", "void", "match_loss")
            or (name.startswith("level_points") and "level_points" not in answer)
            or name.startswith("games")
        ):
            continue  # not a guandan counter, no level_points_table, or not best of three
        value = answer
        for key in path:
            value = value[key]
        assert Outcome.from_parts({name: value}) is not None


@given(st.sampled_from(["2", "3", "10", "K", "A", None, "x"]), st.booleans())
def test_accumulated_levels_never_go_below_zero_or_past_thirteen(level, passed):
    assert 0 <= accumulated_levels(level, passed) <= 13


def test_seats_home_east_west_away_south_north():
    assert [seat_of("EW", 1), seat_of("EW", 2), seat_of("NS", 1), seat_of("NS", 2)] == [
        "E",
        "W",
        "S",
        "N",
    ]
    assert SEAT_ORDER == ("E", "S", "W", "N")
    with pytest.raises(RulesError):
        seat_of("EW", 3)


def test_level_names_run_from_two_to_ace_with_ten_written_10():
    assert LEVEL_NAMES == ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


@pytest.mark.parametrize(
    "levels, ok", [(1, True), (12, True), (0, False), (13, False), (True, False), ("2", False)]
)
def test_a_ruling_moves_a_side_one_to_twelve_levels(levels, ok):
    if ok:
        assert check_levels(levels) == levels
    else:
        with pytest.raises(RulesError) as err:
            check_levels(levels)
        assert err.value.field == "levels"


def test_forfeit_record_scores_as_the_presets_forfeit_and_a_bye_as_its_win():
    answer = api.score(forfeit_record("tractor", "EW"))
    assert answer["match_points"] == {"EW": 0, "NS": 2}
    assert bye_points(PRESETS["guandan-suzhou-2016"]) == 17


def test_a_void_is_recorded_and_answered_as_not_played():
    assert void_record("chengyu") == {"game": "chengyu", "void": True}
    outcome = Outcome.from_answer(void_answer())
    assert outcome.void and not outcome.counts and outcome.winner is None


def test_a_best_of_three_answer_reads_its_games_won():
    outcome = Outcome.from_answer(
        {"match_points": {"EW": 2, "NS": 0}, "games_won": {"EW": 2, "NS": 1}, "winner": "EW"}
    )
    assert (outcome.games_ew, outcome.games_ns, outcome.has_games) == (2, 1, True)
    assert not Outcome.from_answer({"match_points": {"EW": 2, "NS": 0}}).has_games
