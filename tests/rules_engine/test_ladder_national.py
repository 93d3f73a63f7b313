"""The national text's in-play penalties and time limits as ladder data (SPEC 5)."""

import pytest

from rules_engine import ladder
from rules_engine.errors import RulesError
from rules_engine.ladder_national import (
    FOUL,
    MISPLAYED_COMBINATION,
    ROUND_OF_PLAY_LOST,
    TEN_CARD_CALL,
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


def test_in_play_penalty_proposed_only_for_presets_with_the_national_ladder():
    national = get_preset("guandan-national-2017").in_play_ladder
    suzhou = get_preset("guandan-suzhou-2016").in_play_ladder
    assert national == "national" and suzhou is None
    assert steps(ladder.proposed_penalties("guandan", ladder.OUT_OF_TURN, 1, national)) == [
        ladder.VIOLATION, ROUND_OF_PLAY_LOST]  # fmt: skip
    assert ladder.proposed_penalties("guandan", ladder.OUT_OF_TURN, 1, suzhou) == []


def test_play_time_limit_20_s_normal_30_s_verbal_warning_then_violation_and_round_lost():
    assert slow_play_penalties(20) == []
    assert steps(slow_play_penalties(25)) == [ladder.VERBAL_WARNING]
    assert steps(slow_play_penalties(31)) == [ladder.VIOLATION, ROUND_OF_PLAY_LOST]


def test_tribute_time_limit_15_s_and_return_30_s():
    assert not tribute_late(15) and tribute_late(16)
    assert not tribute_late(30, is_return=True) and tribute_late(31, is_return=True)
