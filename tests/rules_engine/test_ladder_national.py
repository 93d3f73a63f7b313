"""The national text's in-play penalties and time limits as ladder data (SPEC 5)."""

import pytest

from rules_engine import ladder
from rules_engine.errors import RulesError
from rules_engine.ladder_national import (
    FOUL,
    MISPLAYED_COMBINATION,
    NATIONAL_ONLY_CATEGORIES,
    ROUND_OF_PLAY_LOST,
    TEN_CARD_CALL,
    WRONG_TRIBUTE,
    in_play_penalties,
    slow_play_penalties,
    tribute_late,
)
from rules_engine.presets import get_preset


def steps(penalties):
    return [p.step for p in penalties]


@pytest.mark.parametrize("category", [TEN_CARD_CALL, ladder.OUT_OF_TURN, MISPLAYED_COMBINATION])
def test_in_play_penalty_escalation_verbal_warning_then_violation_and_round_lost_then_foul(
    category,
):
    assert steps(in_play_penalties(category, 0)) == [ladder.VERBAL_WARNING]
    assert steps(in_play_penalties(category, 1)) == [ladder.VIOLATION, ROUND_OF_PLAY_LOST]
    assert steps(in_play_penalties(category, 2)) == [FOUL]
    assert steps(in_play_penalties(category, 5)) == [FOUL]


def test_in_play_penalty_other_categories_have_no_fixed_penalty():
    assert in_play_penalties(ladder.SIGNALLING, 3) == []
    with pytest.raises(RulesError):
        in_play_penalties(TEN_CARD_CALL, -1)


def test_wrong_tribute_is_scored_last_in_its_deal_however_often():
    assert steps(in_play_penalties(WRONG_TRIBUTE, 0)) == [ladder.SCORED_LAST]
    assert steps(in_play_penalties(WRONG_TRIBUTE, 3)) == [ladder.SCORED_LAST]
    assert ladder.SCORED_LAST in ladder.RESULT_STEPS


def test_national_only_categories_are_those_the_general_ladder_lacks():
    assert NATIONAL_ONLY_CATEGORIES == (TEN_CARD_CALL, MISPLAYED_COMBINATION, WRONG_TRIBUTE)
    assert not set(NATIONAL_ONLY_CATEGORIES) & set(ladder.CATEGORIES)


def test_scored_last_is_a_step_of_guandan_under_the_national_ladder_only():
    assert ladder.SCORED_LAST in ladder.steps_for("guandan", "national")
    assert ladder.SCORED_LAST not in ladder.steps_for("guandan")
    assert ladder.SCORED_LAST not in ladder.steps_for("tractor", "national")
    assert ladder.check_step(ladder.SCORED_LAST, "guandan", in_play_ladder="national")
    with pytest.raises(RulesError, match="step must be one of") as err:
        ladder.check_step(ladder.SCORED_LAST, "guandan")
    assert err.value.field == "step"


def test_in_play_penalty_proposed_only_for_presets_with_an_in_play_ladder():
    national = get_preset("guandan-national-2017").in_play_ladder
    suzhou = get_preset("guandan-suzhou-2016").in_play_ladder
    assert national == "national" and suzhou == "suzhou"  # issue 28: Suzhou has its own
    assert steps(ladder.proposed_penalties("guandan", ladder.OUT_OF_TURN, 1, national)) == [
        ladder.VIOLATION,
        ROUND_OF_PLAY_LOST,
    ]
    assert ladder.proposed_penalties("guandan", ladder.OUT_OF_TURN, 1, None) == []
    assert ladder.proposed_penalties("tractor", ladder.OUT_OF_TURN, 1, None) == []


def test_play_time_limit_20_s_normal_30_s_verbal_warning_then_violation_and_round_lost():
    assert slow_play_penalties(20) == []
    assert steps(slow_play_penalties(25)) == [ladder.VERBAL_WARNING]
    assert steps(slow_play_penalties(31)) == [ladder.VIOLATION, ROUND_OF_PLAY_LOST]


def test_tribute_time_limit_15_s_and_return_30_s():
    assert not tribute_late(15) and tribute_late(16)
    assert not tribute_late(30, is_return=True) and tribute_late(31, is_return=True)


# --- issue 16: the limits are the preset's settings --------------------------------------------


def test_national_time_limits_are_read_from_the_preset_and_its_settings():
    from rules_engine.ladder_national import NationalTimes
    from rules_engine.presets import event_preset

    assert NationalTimes.of(get_preset("guandan-national")) == NationalTimes()
    # guandan-national-2017 leaves them unset: the national text's limits, as before
    assert NationalTimes.of(get_preset("guandan-national-2017")) == NationalTimes()
    slower = NationalTimes.of(
        event_preset(
            "guandan", "guandan-national", {"play_seconds": 25, "tribute_return_seconds": 40}
        )
    )
    assert (slower.play_normal, slower.play_warning, slower.tribute_return) == (25, 30, 40)
    assert slow_play_penalties(24, slower) == []
    assert not tribute_late(40, is_return=True, times=slower)


@pytest.mark.parametrize(
    ("seconds", "timed", "expected"),
    [
        (20, "play", []),
        (25, "play", [ladder.VERBAL_WARNING]),
        (31, "play", [ladder.VIOLATION, ROUND_OF_PLAY_LOST]),
        (15, "tribute", []),
        (16, "tribute", [ladder.VERBAL_WARNING]),
        (31, "return", [ladder.VERBAL_WARNING]),
        (None, "play", []),
    ],
)
def test_slow_play_under_the_national_ladder_proposes_by_the_seconds_taken(
    seconds, timed, expected
):
    proposed = ladder.proposed_penalties(
        "guandan", ladder.SLOW_PLAY, 0, "national", seconds=seconds, timed=timed
    )
    assert steps(proposed) == expected


def test_slow_play_without_the_national_ladder_proposes_nothing_as_before():
    assert ladder.proposed_penalties("guandan", ladder.SLOW_PLAY, 0, None, seconds=99) == []


def test_slow_play_names_a_bad_timed_action():
    with pytest.raises(RulesError) as err:
        ladder.proposed_penalties(
            "guandan", ladder.SLOW_PLAY, 0, "national", seconds=5, timed="shuffle"
        )
    assert err.value.field == "timed"
