"""Finding 8 of issue 13: two deciding committee votes at once, on PostgreSQL. The deciding
vote locks the appeal row; the losing vote is told the appeal was decided meanwhile (it was
told "You have already voted")."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.utils import translation

from arbitration.models import AppealDecision, Vote
from arbitration.services import appeals
from arbitration.services.incidents import log_incident
from arbitration.services.rulings import rule


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_deciding_votes_at_once_one_decides_the_other_is_told_decided_meanwhile(arb):
    case = log_incident(
        arb.event,
        arb.referee,
        category="signalling",
        description="signals",
        match=arb.match,
        team=arb.teams[0],
    )
    ruling = rule(case, arb.chief, step="warning", reason="signalling seen")[0]
    appeal = appeals.file_appeal(ruling, arb.captain, "no signal")
    appeals.vote(appeal, arb.committee[0], "uphold", "clear")  # 1 of 3: the next one decides

    # Both votes pass the early checks before either takes the lock.
    barrier = threading.Barrier(2, timeout=30)
    real_lock = appeals.lock_open

    def lock_after_both_arrived(target):
        barrier.wait()
        real_lock(target)

    outcomes: list = [None, None]

    def cast(i):
        try:
            with translation.override("en"):  # a thread starts in the default language
                outcomes[i] = appeals.vote(appeal, arb.committee[1 + i], "uphold", f"vote {i}")
        except Exception as exc:  # noqa: BLE001 - asserted below
            outcomes[i] = exc
        finally:
            connection.close()

    appeals.lock_open = lock_after_both_arrived
    try:
        threads = [threading.Thread(target=cast, args=(i,)) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    finally:
        appeals.lock_open = real_lock

    votes = [o for o in outcomes if isinstance(o, Vote)]
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(votes) == 1 and len(refused) == 1, outcomes
    assert isinstance(refused[0], appeals.DecidedMeanwhile)
    assert refused[0].status == 409 and "decided meanwhile" in refused[0].message
    assert "already voted" not in refused[0].message
    decision = AppealDecision.objects.get(appeal=appeal)
    assert (decision.choice, decision.votes, decision.members) == ("uphold", 2, 3)
    assert Vote.objects.filter(appeal=appeal).count() == 2  # the losing vote is not stored
