"""Real concurrent transactions on PostgreSQL: no lost submission, one counting version."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from tests.factories import actor, guandan_record
from tournaments.models import AuditLog, ResultVersion
from tournaments.services import result_confirm, result_entry, results
from tournaments.services.results import ChangedMeanwhile

THREADS = 20


def _record(i: int) -> dict:
    # distinct records (tagged by i), each a legal one-deal guandan record
    finish = [["E", "N", "S", "W"], ["E", "S", "W", "N"], ["E", "W", "S", "N"]][i % 3]
    return guandan_record([{"finish": finish}]) | {"tag": i}


def _run_threads(work) -> list:
    barrier = threading.Barrier(THREADS)
    outcomes: list = [None] * THREADS

    def run(i):
        try:
            barrier.wait()
            outcomes[i] = work(i)
        except Exception as exc:  # noqa: BLE001 — recorded and asserted on below
            outcomes[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return outcomes


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_parallel_submissions_on_one_base_lose_nothing(event):
    def submit(i):
        return result_entry.submit(event.match, _record(i), actor(event.referee), 0)

    outcomes = _run_threads(submit)
    stored = [o for o in outcomes if isinstance(o, ResultVersion)]
    refused = [o for o in outcomes if isinstance(o, ChangedMeanwhile)]
    assert len(stored) == 1 and len(refused) == THREADS - 1, outcomes
    assert ResultVersion.objects.filter(match=event.match).count() == 1
    conflicts = AuditLog.objects.filter(action="result.conflict", target_id=str(event.match.pk))
    kept = {v.record["tag"] for v in ResultVersion.objects.filter(match=event.match)}
    kept |= {entry.data["record"]["tag"] for entry in conflicts}
    assert kept == set(range(THREADS))  # every submission is stored or readable in the audit
    assert {o.latest.number for o in refused} == {1}  # each loser was shown the newer version


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_parallel_resubmissions_and_racing_confirmations_leave_one_counting_version(event):
    def submit_then_confirm(i):
        for _attempt in range(50):
            latest = results.latest_version(event.match)
            try:
                mine = result_entry.submit(
                    event.match, _record(i), actor(event.referee), latest.number if latest else 0
                )
                break
            except ChangedMeanwhile:
                continue
        else:
            return "gave up"
        try:
            return result_confirm.confirm(event.match, mine.number, actor(event.chief))
        except ChangedMeanwhile:
            return mine

    outcomes = _run_threads(submit_then_confirm)
    assert all(isinstance(o, ResultVersion) for o in outcomes), outcomes
    versions = list(ResultVersion.objects.filter(match=event.match).order_by("number"))
    assert [v.number for v in versions] == list(range(1, THREADS + 1))
    assert {v.record["tag"] for v in versions} == set(range(THREADS))
    assert sum(v.is_counting for v in versions) == 1
