"""The idiom-chain ladder through incidents and rulings, and late arrival forfeits."""

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from arbitration.services.incidents import log_incident
from arbitration.services.lateness import late_status, pending_forfeits
from arbitration.services.rulings import proposal, revoke, rule
from rules_engine.ladder import Penalty
from tests.factories import counting_outcome, enter_result, points
from tournaments.models import RankingAdjustment

# a whole match of three deals (a record of 2 deals of 3 is not over and cannot count, issue 35)
CHENGYU_DEALS = [
    {"tricks": {"EW": 8, "NS": 5}},
    {"tricks": {"EW": 6, "NS": 7}},
    {"tricks": {"EW": 7, "NS": 6}},
]
T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def chengyu(arb):
    arb.event.game, arb.event.preset = "chengyu", "chengyu"
    arb.event.save()
    enter_result(arb, deals=CHENGYU_DEALS)  # EW wins 2:1 on deals, tricks 21:18
    return arb


def talk(arb, team=None, category="signalling"):
    return log_incident(
        arb.event,
        arb.referee,
        category=category,
        description="talked",
        match=arb.match,
        team=team or arb.teams[0],
    )


def rule_proposed(arb, case, **fields):
    [penalty] = proposal(case)
    return rule(case, arb.chief, step=penalty.step, reason="ladder", **fields)[0]


def test_chengyu_talking_ladder_warning_then_trick_then_round_lost(chengyu):
    first = talk(chengyu)
    assert proposal(first) == [Penalty("warning")]
    rule_proposed(chengyu, first)
    second = talk(chengyu)
    assert proposal(second) == [Penalty("trick_to_opponents")]
    rule_proposed(chengyu, second, deal=1)
    assert counting_outcome(chengyu.match)["trace"][0]["tricks"] == {"EW": 7, "NS": 6}
    third = talk(chengyu)
    assert proposal(third) == [Penalty("round_lost")]
    rule_proposed(chengyu, third)
    outcome = counting_outcome(chengyu.match)
    # the round lost 4:9 counts as the match's three deals 4:9 (成语 七; SPEC 4.4): 12:27
    assert [d["tricks"] for d in outcome["trace"]] == [{"EW": 4, "NS": 9}] * 3
    assert outcome["winner"] == "NS" and outcome["tricks"] == {"EW": 12, "NS": 27}
    assert points(chengyu.event)["Team 002"] == 2


def test_chengyu_trick_transfer_can_change_the_winner(chengyu):
    for _ in range(2):
        rule(
            talk(chengyu, category="missed_compulsory"),
            chengyu.chief,
            step="trick_to_opponents",
            deal=1,
            reason="必出 missed",
        )
    assert counting_outcome(chengyu.match)["winner"] == "NS"
    assert points(chengyu.event) == {
        "Team 001": 0,
        "Team 002": 2,
        "Team 003": 0,
        "Team 004": 0,
    }


def test_chengyu_showing_cards_loses_the_round(chengyu):
    case = talk(chengyu, team=chengyu.teams[1], category="card_showing")
    assert proposal(case) == [Penalty("round_lost")]
    rule_proposed(chengyu, case)
    assert counting_outcome(chengyu.match)["trace"][0]["tricks"] == {"EW": 9, "NS": 4}


def test_chengyu_spectator_hint_beneficiary_loses_and_hinting_team_drops(chengyu):
    case = talk(chengyu, category="spectator_hint")
    assert [p.step for p in proposal(case)] == ["round_lost", "ranking_drop"]
    rule(case, chengyu.chief, step="round_lost", reason="hint from the stands")
    rule(
        case,
        chengyu.chief,
        step="ranking_drop",
        team=chengyu.teams[2],
        places=1,
        reason="their unit's spectator hinted",
    )
    assert counting_outcome(chengyu.match)["winner"] == "NS"
    adjustment = RankingAdjustment.objects.get()
    assert adjustment.team == chengyu.teams[2] and adjustment.places == 1
    # the hinting unit drops one place in the unit standings (SPEC 2), not the team
    assert adjustment.unit == chengyu.teams[2].unit
    from tournaments.services.units import unit_moves

    assert unit_moves(chengyu.event) == {chengyu.teams[2].unit.name: 1}


def test_revoked_chengyu_offence_does_not_count_on_the_ladder(chengyu):
    first = talk(chengyu)
    revoke(rule_proposed(chengyu, first), chengyu.chief, "it was the opponents")
    assert proposal(talk(chengyu)) == [Penalty("warning")]


# --- late arrival -------------------------------------------------------------------------


def late(arb, minutes, leave=False):
    arb.round.started_at = T0
    arb.round.save()
    return log_incident(
        arb.event,
        arb.referee,
        category="late_arrival",
        description="arrived late",
        match=arb.match,
        team=arb.teams[1],
        arrived_at=T0 + timedelta(minutes=minutes),
        leave_approved=leave,
    )


@pytest.mark.parametrize(
    ("elapsed", "shown", "whole", "forfeit"),
    [
        (timedelta(minutes=9, seconds=59), 9.9, 9, False),
        (timedelta(minutes=10), 10.0, 10, True),
        (timedelta(minutes=10, seconds=30), 10.5, 10, True),
    ],
)
def test_rule_迟到10分钟视为弃权_incident_path_boundary_9_59_10_00_10_30(
    arb, time_machine, elapsed, shown, whole, forfeit
):
    """The late-arrival incident asks the same rule as the round's late list
    (rules_engine.ladder.is_late): a team arriving 9:59 after the start is in time, 10:00 and
    10:30 propose the forfeit (the referee logs the arrival as it happens: the clock moved)."""
    arb.round.started_at = T0
    arb.round.save()
    time_machine.move_to(T0 + elapsed, tick=False)
    case = log_incident(
        arb.event,
        arb.referee,
        category="late_arrival",
        description="arrived late",
        match=arb.match,
        team=arb.teams[1],
        arrived_at=timezone.now(),
    )
    status = late_status(case)
    assert (status.minutes_late, status.whole_minutes, status.limit) == (shown, whole, 10)
    assert status.forfeit is forfeit
    assert [i for i, _ in pending_forfeits(arb.event)] == ([case] if forfeit else [])


def test_approved_leave_gives_fifteen_minutes(arb):
    assert not late_status(late(arb, 14 + 59 / 60, leave=True)).forfeit
    assert late_status(late(arb, 15, leave=True)).forfeit


def test_chief_referee_confirms_the_late_forfeit(arb):
    case = late(arb, 12)
    rule(case, arb.chief, step="forfeit", reason="12 minutes late")
    outcome = counting_outcome(arb.match)
    assert outcome["forfeit"] == "NS"
    assert points(arb.event)["Team 001"] == 17
    assert pending_forfeits(arb.event) == []
    assert late_status(case).confirmed


def test_revoked_late_forfeit_without_a_result_voids_the_match(arb):
    case = late(arb, 12)
    [ruling] = rule(case, arb.chief, step="forfeit", reason="12 minutes late")
    revoke(ruling, arb.chief, "the clock was wrong")
    assert counting_outcome(arb.match) == {"void": True, "winner": None, "trace": []}
    assert points(arb.event)["Team 001"] == 0


def test_a_trick_ruling_on_a_deal_that_was_not_played_is_refused_naming_the_deal(chengyu):
    """Issue 39: a ruling naming deal 7 of a three-deal match is refused on its deal field,
    nothing applied."""
    from arbitration.services.common import ArbitrationError
    from tournaments.models import ResultVersion

    versions = ResultVersion.objects.count()
    with pytest.raises(ArbitrationError) as refused:
        rule(
            talk(chengyu, category="missed_compulsory"),
            chengyu.chief,
            step="trick_to_opponents",
            deal=7,
            reason="必出 missed",
        )
    assert refused.value.field == "deal" and "no deal 7 (it holds 3)" in refused.value.message
    assert ResultVersion.objects.count() == versions
    assert counting_outcome(chengyu.match)["winner"] == "EW"
