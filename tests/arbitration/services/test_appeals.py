"""Appeals: deadlines on a frozen clock, the committee's simple majority, and what an
upheld or overturned ruling does to the result and the standings."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from arbitration.models import Appeal, Vote
from arbitration.services import ArbitrationError, ArbitrationForbidden, appeals
from arbitration.services.incidents import log_incident
from arbitration.services.rulings import rule
from tests.factories import counting_outcome, enter_result, points
from tournaments.models import AuditLog, ResultVersion

T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def clock():
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


def rule_on(arb, step="level_deduction", **fields):
    case = log_incident(
        arb.event,
        arb.referee,
        category="signalling",
        description="signals",
        match=arb.match,
        team=arb.teams[0],
    )
    return rule(case, arb.chief, step=step, reason="signalling seen", **fields)[0]


def test_appeal_within_thirty_minutes_of_the_match_is_open(arb, clock):
    enter_result(arb)  # the match ends at 09:00
    ruling = rule_on(arb)
    clock.shift(timedelta(minutes=30))
    appeal = appeals.file_appeal(ruling, arb.captain, "the signal was a cough")
    assert appeal.status == "open" and not appeal.late
    assert appeals.deadline(appeal) == T0 + timedelta(minutes=30)
    assert AuditLog.objects.filter(action="appeal.file").exists()


def test_late_appeal_is_refused_with_the_reason(arb, clock):
    enter_result(arb)
    ruling = rule_on(arb)
    clock.shift(timedelta(minutes=31))
    appeal = appeals.file_appeal(ruling, arb.captain, "too late")
    assert appeal.status == "refused"
    assert "within 30 minutes" in appeals.refusal(appeal)
    with pytest.raises(ArbitrationError, match="not open"):
        appeals.vote(appeal, arb.committee[0], "overturn", "x")


def test_chief_referee_may_accept_a_late_appeal_with_a_logged_reason(arb, clock):
    enter_result(arb)
    ruling = rule_on(arb)
    clock.shift(timedelta(minutes=45))
    appeal = appeals.file_appeal(ruling, arb.captain, "the captain was at the medical desk")
    with pytest.raises(ArbitrationForbidden):
        appeals.accept_late(appeal, arb.referee, "ok")
    appeals.accept_late(appeal, arb.chief, "medical emergency")
    assert appeal.status == "open"
    entry = AuditLog.objects.get(action="appeal.accept_late")
    assert entry.reason == "medical emergency" and entry.actor == arb.chief
    assert appeals.answer_deadline(appeal) == T0 + timedelta(minutes=45, hours=2)


def test_ruling_made_after_the_match_can_be_appealed_for_thirty_minutes(arb, clock):
    enter_result(arb)
    clock.shift(timedelta(hours=1))
    ruling = rule_on(arb)
    clock.shift(timedelta(minutes=20))
    assert appeals.file_appeal(ruling, arb.captain, "x").status == "open"


def test_answer_deadline_is_two_hours_and_flagged_near_and_past(arb, clock):
    enter_result(arb)
    appeal = appeals.file_appeal(rule_on(arb), arb.captain, "x")
    assert appeals.answer_deadline(appeal) == T0 + timedelta(hours=2)
    assert appeals.answer_state(appeal) == "ok"
    clock.shift(timedelta(minutes=95))
    assert appeals.answer_state(appeal) == "near"
    clock.shift(timedelta(minutes=30))
    assert appeals.answer_state(appeal) == "past"


def test_majority_of_three_overturns_and_restores_the_original_result(arb, clock):
    enter_result(arb)
    original = counting_outcome(arb.match)
    ruling = rule_on(arb)
    assert points(arb.event)["Team 001"] == 10
    appeal = appeals.file_appeal(ruling, arb.captain, "no signal")
    appeals.vote(appeal, arb.committee[0], "overturn", "a cough")
    assert appeal.status == "open" and ruling.is_active  # one vote of three: no decision
    appeals.vote(appeal, arb.committee[1], "overturn", "video shows a cough")
    assert appeal.status == "decided" and appeal.decision.choice == "overturn"
    assert not ruling.is_active
    assert counting_outcome(arb.match) == original
    assert points(arb.event)["Team 001"] == 11
    with pytest.raises(ArbitrationError, match="not open"):
        appeals.vote(appeal, arb.committee[2], "uphold", "late vote")


def test_overturned_match_loss_restores_the_original_result(arb, clock):
    enter_result(arb)
    original = counting_outcome(arb.match)
    ruling = rule_on(arb, step="match_loss")
    assert points(arb.event)["Team 002"] == 17
    appeal = appeals.file_appeal(ruling, arb.captain, "x")
    for member in arb.committee[:2]:
        appeals.vote(appeal, member, "overturn", "insufficient evidence")
    assert counting_outcome(arb.match) == original
    assert points(arb.event) == {"Team 001": 11, "Team 002": 9, "Team 003": 0, "Team 004": 0}
    kinds = list(ResultVersion.objects.filter(match=arb.match).values_list("kind", flat=True))
    assert kinds == ["submission", "ruling", "ruling"]  # every version stays readable


def test_upheld_ruling_stands(arb, clock):
    enter_result(arb)
    ruling = rule_on(arb)
    appeal = appeals.file_appeal(ruling, arb.captain, "x")
    appeals.vote(appeal, arb.committee[0], "uphold", "clear signal")
    appeals.vote(appeal, arb.committee[1], "overturn", "doubtful")
    appeals.vote(appeal, arb.committee[2], "uphold", "seen on video")
    assert appeal.decision.choice == "uphold" and ruling.is_active
    assert points(arb.event)["Team 001"] == 10


def test_amended_ruling_replaces_the_penalty(arb, clock):
    enter_result(arb)
    ruling = rule_on(arb)
    appeal = appeals.file_appeal(ruling, arb.captain, "too harsh")
    appeals.vote(appeal, arb.committee[0], "amend", "a warning is enough", "warning")
    appeals.vote(appeal, arb.committee[1], "amend", "agreed", "warning")
    decision = appeal.decision
    assert decision.choice == "amend" and decision.new_ruling.step == "warning"
    assert decision.new_ruling.amends == ruling and not ruling.is_active
    assert points(arb.event)["Team 001"] == 11


def test_split_votes_leave_the_appeal_open(arb, clock):
    enter_result(arb)
    appeal = appeals.file_appeal(rule_on(arb), arb.captain, "x")
    appeals.vote(appeal, arb.committee[0], "overturn", "a")
    appeals.vote(appeal, arb.committee[1], "uphold", "b")
    appeals.vote(appeal, arb.committee[2], "amend", "c", "warning")
    assert appeal.status == "open"


def test_only_committee_members_vote_and_only_once(arb, clock):
    enter_result(arb)
    appeal = appeals.file_appeal(rule_on(arb), arb.captain, "x")
    for user in (arb.chief, arb.referee, arb.captain, arb.organiser):
        with pytest.raises(ArbitrationForbidden):
            appeals.vote(appeal, user, "overturn", "x")
    appeals.vote(appeal, arb.committee[0], "overturn", "x")
    with pytest.raises(ArbitrationError, match="already voted"):
        appeals.vote(appeal, arb.committee[0], "uphold", "changed my mind")
    assert Vote.objects.filter(appeal=appeal).count() == 1


def test_only_a_captain_of_an_involved_team_appeals(arb, clock):
    enter_result(arb)
    ruling = rule_on(arb)
    for user in (arb.captain3, arb.referee, arb.committee[0]):
        with pytest.raises(ArbitrationForbidden):
            appeals.file_appeal(ruling, user, "x")
    assert appeals.file_appeal(ruling, arb.captain_away, "more").team == arb.teams[1]
    appeals.file_appeal(ruling, arb.captain, "x")
    with pytest.raises(ArbitrationError, match="already appealed"):
        appeals.file_appeal(ruling, arb.captain, "again")
    assert Appeal.objects.count() == 2


def test_amendment_needs_a_different_known_step(arb, clock):
    enter_result(arb)
    appeal = appeals.file_appeal(rule_on(arb), arb.captain, "x")
    with pytest.raises(ArbitrationError) as err:
        appeals.vote(appeal, arb.committee[0], "amend", "x", "level_deduction")
    assert err.value.field == "amended_step"
    with pytest.raises(ArbitrationError) as err:
        appeals.vote(appeal, arb.committee[0], "amend", "x", "flogging")
    assert err.value.field == "amended_step"
