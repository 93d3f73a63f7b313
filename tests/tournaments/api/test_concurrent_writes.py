"""Issue 31: concurrent organiser writes on PostgreSQL never deadlock.

Every saved row bumps the event's revision; a bump locks one of the event's revision
counters until its transaction commits. With a counter drawn for each row, two
transactions saving several rows (a team and its players, an event) took two counters in
opposite orders: 53 of 200 concurrent PATCHes answered 500 ("deadlock detected").
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection
from rest_framework.test import APIClient

from tournaments.models import Team

THREADS = 8
REQUESTS = 200


@pytest.mark.slow  # a scale test: make test runs it, make test-fast does not
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_hundred_concurrent_event_and_team_patches_answer_no_500_and_never_deadlock(event):
    slug = event.event.slug
    teams = list(Team.objects.filter(event=event.event).order_by("pk"))
    barrier = threading.Barrier(THREADS)
    statuses: list[int] = []
    errors: list[str] = []
    lock = threading.Lock()

    def work(worker: int) -> None:
        client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
        client.force_authenticate(event.organiser)
        try:
            barrier.wait()
            for n in range(worker, REQUESTS, THREADS):
                if n % 3 == 0:  # the event: the event row and its settings
                    answer = client.patch(
                        f"/api/tournaments/{slug}/", {"name": f"Cup {n}"}, format="json"
                    )
                else:  # a team and both its players: three rows, three bumps
                    team = teams[n % len(teams)]
                    answer = client.patch(
                        f"/api/tournaments/{slug}/teams/{team.pk}/",
                        {"players": [f"A{n}", f"B{n}"], "seed": None},
                        format="json",
                    )
                with lock:
                    statuses.append(answer.status_code)
                    if answer.status_code >= 500:
                        errors.append(answer.content.decode()[:300])
        except Exception as exc:  # noqa: BLE001 — a deadlock raised by the test client
            with lock:
                errors.append(repr(exc))
        finally:
            connection.close()

    before = _deadlocks()
    threads = [threading.Thread(target=work, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    time.sleep(1.5)  # PostgreSQL flushes its statistics counters about once a second
    assert not errors, errors[:3]
    assert len(statuses) == REQUESTS
    assert [s for s in statuses if s >= 500] == []
    assert set(statuses) <= {200}, sorted(set(statuses))
    assert _deadlocks() == before  # PostgreSQL counted no deadlock in this database


def _deadlocks() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_a_transaction_bumps_one_revision_counter_however_many_rows_it_saves(event):
    """The rule that makes the counters deadlock-free: one counter a transaction."""
    from django.db import transaction

    from tournaments.models import EventRevision

    def counters() -> dict[int, int]:
        rows = EventRevision.objects.filter(event=event.event)
        return dict(rows.values_list("shard", "bumps"))

    for _attempt in range(5):  # five transactions, each saving five rows
        before = counters()
        with transaction.atomic():
            for team in Team.objects.filter(event=event.event):
                team.save()
        after = counters()
        changed = {s: after[s] - before.get(s, 0) for s in after if after[s] != before.get(s)}
        assert list(changed.values()) == [5], changed
