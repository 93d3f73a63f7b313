"""The Suzhou preset's own in-play rules through incidents and rulings (issue 28; 掼蛋 苏州
十二, 十(三), 五(五)), and the idiom chain's 10-second rule (成语接龙 五)."""

import pytest

from arbitration.services.incidents import log_incident
from arbitration.services.rulings import proposal, rule
from rules_engine.ladder_national import ROUND_OF_PLAY_LOST, TRIBUTE_REDONE

pytestmark = pytest.mark.django_db


def offence(arb, category, **extra):
    return log_incident(
        arb.event,
        arb.referee,
        category=category,
        description="seen",
        match=arb.match,
        team=arb.teams[0],
        **extra,
    )


def steps(case):
    return [p.step for p in proposal(case)]


@pytest.mark.parametrize("category", ["wrong_card", "out_of_turn"])
def test_suzhou_12_a_wrong_exposed_or_out_of_turn_card_stops_one_round_of_play(arb, category):
    assert arb.event.preset == "guandan-suzhou-2016"
    first = offence(arb, category)
    assert steps(first) == [ROUND_OF_PLAY_LOST]
    [ruling, *_] = rule(first, arb.chief, step="verbal_warning", reason="十二")
    assert ruling.in_play_steps == [ROUND_OF_PLAY_LOST]
    assert steps(offence(arb, category)) == [ROUND_OF_PLAY_LOST]  # every time, not escalating


def test_suzhou_5_5_a_tribute_violation_is_given_again_without_a_deal_or_seat(arb):
    case = offence(arb, "wrong_tribute")  # before play: no deal or seat to score last
    assert steps(case) == [TRIBUTE_REDONE]
    [ruling, *_] = rule(case, arb.chief, step="no_penalty", reason="dismissed")
    assert ruling.in_play_steps == []
    [ruling, *_] = rule(offence(arb, "wrong_tribute"), arb.chief, step="warning", reason="五(五)")
    assert ruling.in_play_steps == [TRIBUTE_REDONE]


def test_suzhou_10_3_ten_card_count_is_logged_and_left_to_the_chief_referee(arb):
    case = offence(arb, "ten_card_call")
    assert steps(case) == []


def test_chengyu_5_slow_play_over_10_seconds_is_one_trick_to_the_opponents(arb):
    arb.event.game, arb.event.preset = "chengyu", "chengyu"
    arb.event.save()
    assert steps(offence(arb, "slow_play", seconds=12)) == ["trick_to_opponents"]
    assert steps(offence(arb, "slow_play")) == ["trick_to_opponents"]  # not timed: as logged
    assert steps(offence(arb, "slow_play", seconds=10)) == []  # within the 10 seconds
