"""Slow play under the national preset's time limits (SPEC 5): the seconds a play, a tribute
or its return took make the ladder's proposal; other presets leave it to the chief referee."""

import pytest

from arbitration.services.incidents import log_incident
from arbitration.services.rulings import proposal
from rules_engine.ladder_national import ROUND_OF_PLAY_LOST

pytestmark = pytest.mark.django_db


def national(arb, **settings):
    arb.event.preset, arb.event.settings = "guandan-national", settings
    arb.event.save()
    return arb


def slow(arb, seconds, timed="play"):
    return log_incident(
        arb.event,
        arb.referee,
        category="slow_play",
        description="slow",
        match=arb.match,
        team=arb.teams[0],
        seconds=seconds,
        timed=timed,
    )


def steps(case):
    return [p.step for p in proposal(case)]


def test_national_play_time_20_s_normal_30_s_verbal_warning_then_violation(arb):
    national(arb)
    assert steps(slow(arb, 20)) == []
    assert steps(slow(arb, 28)) == ["verbal_warning"]
    assert steps(slow(arb, 31)) == ["violation", ROUND_OF_PLAY_LOST]


def test_national_tribute_15_s_and_return_30_s(arb):
    national(arb)
    assert steps(slow(arb, 15, "tribute")) == [] and steps(slow(arb, 16, "tribute"))
    assert steps(slow(arb, 30, "return")) == [] and steps(slow(arb, 31, "return"))


def test_the_events_settings_move_the_limits(arb):
    national(arb, play_warning_seconds=40)
    assert steps(slow(arb, 35)) == ["verbal_warning"]


def test_without_an_in_play_ladder_slow_play_proposes_nothing_as_before(arb):
    arb.event.settings = {
        "in_play_ladder": None,
        "play_seconds": None,
        "tribute_return_seconds": None,
    }
    arb.event.save()
    assert steps(slow(arb, 99)) == []


def test_suzhou_13_5_play_30_s_normal_return_within_40_s(arb):
    """掼蛋 苏州 十三 第5条 "出牌：0—30秒属正常出牌时间；贡牌后，还牌人必须在40秒内还牌"."""
    assert steps(slow(arb, 30)) == [] and steps(slow(arb, 40, "return")) == []
    assert steps(slow(arb, 16, "tribute")) == []  # the seed sets no limit on the tribute
    assert steps(slow(arb, 31)) == ["verbal_warning"]
    assert steps(slow(arb, 41, "return")) == ["verbal_warning"]


def test_suzhou_13_5_a_second_slow_play_in_the_match_is_proposed_a_warning(arb):
    from arbitration.services.rulings import rule

    rule(slow(arb, 45), arb.chief, step="verbal_warning", reason="first")
    case = slow(arb, 45)
    assert steps(case) == ["warning"]
    [ruling, *_] = rule(case, arb.chief, step="warning", reason="second")
    assert ruling.in_play_steps == []


def test_seconds_must_be_a_whole_number(arb):
    from arbitration.services import ArbitrationError

    with pytest.raises(ArbitrationError) as err:
        slow(arb, -3)
    assert err.value.field == "seconds"
