"""Slow play under the national preset's time limits (SPEC 5): the seconds a play, a tribute
or its return took make the ladder's proposal; other presets leave it to the chief referee."""

import pytest

from arbitration.services.incidents import log_incident
from arbitration.services.rulings import proposal
from rules_engine.ladder_national import ROUND_OF_PLAY_LOST

pytestmark = pytest.mark.django_db


def national(arb, **settings):
    arb.tournament.preset, arb.tournament.settings = "guandan-national", settings
    arb.tournament.save()
    return arb


def slow(arb, seconds, timed="play"):
    return log_incident(arb.tournament, arb.referee, category="slow_play", description="slow",
                        match=arb.match, team=arb.teams[0], seconds=seconds, timed=timed)  # fmt: skip


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


def test_suzhou_preset_proposes_nothing_for_slow_play_as_before(arb):
    assert steps(slow(arb, 99)) == []


def test_seconds_must_be_a_whole_number(arb):
    from arbitration.services import ArbitrationError

    with pytest.raises(ArbitrationError) as err:
        slow(arb, -3)
    assert err.value.field == "seconds"
