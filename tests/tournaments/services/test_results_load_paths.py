"""The cheap paths of a confirmed submission keep every guarantee (bench/results_load.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import IntegrityError
from rest_framework import serializers

from tests import factories
from tests.factories import actor, guandan_record
from tests.tournaments.services.test_results_concurrency import THREADS, _run_threads
from tournaments import permissions
from tournaments.api.result_serializers import HistoryVersionSerializer, VersionSerializer
from tournaments.errors import NotFound
from tournaments.models import AuditLog, Match, ResultVersion, Round
from tournaments.services import result_entry, round_close
from tournaments.services.results import ChangedMeanwhile
from tournaments.sql import lookups

ROOT = Path(__file__).resolve().parents[3]


def _stored_counting_version(match, user) -> None:
    """What another transaction commits meanwhile: match's version 1, counting."""
    ResultVersion.objects.create(
        match=match,
        number=1,
        record=guandan_record(),
        outcome={},
        created_by=user,
        is_counting=True,
    )


@pytest.mark.django_db
def test_round_completes_when_the_last_two_results_commit_at_the_same_moment(
    event, django_capture_on_commit_callbacks
):
    # Each of the two last writers sees the other's match as pending inside its own
    # transaction; the look after the commit sees both and completes the round.
    with django_capture_on_commit_callbacks() as after_commit:
        result_entry.submit(event.match, guandan_record(), actor(event.chief), 0, confirm=True)
    _stored_counting_version(event.match2, event.chief)
    assert Round.objects.get(pk=event.round.pk).status == Round.Status.IN_PLAY
    for callback in after_commit:
        callback()
    assert Round.objects.get(pk=event.round.pk).status == Round.Status.COMPLETE
    assert AuditLog.objects.filter(action="round.complete").count() == 1


@pytest.mark.django_db
def test_round_pending_check_ignores_byes_and_sees_voids_as_decided(event):
    assert round_close.has_pending(event.round.pk)
    result_entry.submit(event.match, guandan_record(), actor(event.chief), 0, confirm=True)
    assert round_close.has_pending(event.round.pk)
    result_entry.void(event.match2, actor(event.chief), 0, "table abandoned")
    assert not round_close.has_pending(event.round.pk)  # the bye never needs a result


@pytest.mark.django_db
def test_round_pending_check_from_the_decided_table_finds_undecided_tables_on_either_side(event):
    first, second = sorted((event.match, event.match2), key=lambda m: m.table_number)
    result_entry.submit(second, guandan_record(), actor(event.chief), 0, confirm=True)
    for table in (None, 0, first.table_number, second.table_number, 10**6):
        assert round_close.has_pending(event.round.pk, table)  # the first table, before or after
    result_entry.submit(first, guandan_record(), actor(event.chief), 0, confirm=True)
    for table in (None, 0, first.table_number, second.table_number, 10**6):
        assert not round_close.has_pending(event.round.pk, table)


@pytest.mark.django_db
def test_round_completion_is_checked_once_more_only_while_matches_are_pending(
    event, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as first:
        result_entry.submit(event.match, guandan_record(), actor(event.chief), 0, confirm=True)
    with django_capture_on_commit_callbacks() as last:
        result_entry.submit(event.match2, guandan_record(), actor(event.chief), 0, confirm=True)
    assert Round.objects.get(pk=event.round.pk).status == Round.Status.COMPLETE
    assert len(last) == len(first) - 1  # the completing write needs no second look


@pytest.mark.django_db
def test_confirmed_submission_takes_a_bounded_number_of_queries(
    event, api_as, django_assert_max_num_queries
):
    client = api_as(event.chief)  # authenticated without a session: no session/user queries
    body = {"record": guandan_record(), "base_version": 0, "confirm": True}
    path = f"/api/tournaments/{event.event.slug}/matches/{event.match.pk}/result/"
    # match with its round and event, roles, savepoint, version 1 (no match lock: nothing to
    # switch), the round's pending check, the audit entry, the event revision bump, release
    with django_assert_max_num_queries(8):
        response = client.post(path, body, format="json")
    assert response.status_code == 201 and response.json()["is_counting"] is True


@pytest.mark.django_db
def test_version_serializer_built_once_gives_each_instance_its_own_fields(event):
    version = result_entry.submit(
        event.match, guandan_record(), actor(event.chief), 0, confirm=True
    )
    first, second = HistoryVersionSerializer(version), HistoryVersionSerializer(version)
    assert first.fields["record"] is not second.fields["record"]
    first.fields.pop("record")
    assert "record" in second.data and "record" not in first.data
    assert second.data["number"] == 1 and second.data["is_counting"] is True


def _generic(version) -> dict:
    """DRF's own rendering of the version's fields."""
    return dict(serializers.ModelSerializer.to_representation(VersionSerializer(), version))


@pytest.mark.django_db
def test_the_written_out_version_rendering_equals_drf_generic_one(event):
    entered = result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    counting = result_entry.submit(
        event.match2, guandan_record(), actor(event.chief), 0, confirm=True
    )
    for version in (entered, counting, ResultVersion.objects.get(pk=counting.pk)):
        assert VersionSerializer(version).data == _generic(version)
    assert VersionSerializer(entered).data["confirmed_at"] is None
    assert VersionSerializer(counting).data["confirmed_by"] == event.chief.username


@pytest.mark.django_db
def test_the_match_lookup_of_the_write_path_equals_the_orm_and_is_scoped_to_its_event(event):
    found = lookups.match_in_event(event.event.slug, event.match.pk)
    orm = Match.objects.select_related("round__event").get(pk=event.match.pk)
    for made, expected in (
        (found, orm),
        (found.round, orm.round),
        (found.round.event, orm.round.event),
    ):
        fields = type(expected)._meta.concrete_fields
        assert [getattr(made, f.attname) for f in fields] == [
            getattr(expected, f.attname) for f in fields
        ]
        assert made._state.adding is False and made._state.db == "default"
    assert isinstance(found.round.event.settings, dict)  # JSON read as objects
    other = factories.event(slug="other-event")
    for slug, pk in (
        (other.slug, event.match.pk),
        (event.event.slug, 10**9),
        (event.event.slug, "x"),
    ):
        with pytest.raises(NotFound):
            lookups.match_in_event(slug, pk)


@pytest.mark.django_db
def test_the_match_lookup_reads_the_users_roles_in_the_event_in_the_same_query(
    event, django_assert_num_queries
):
    factories.grant(event.chief, event.event, "organiser")  # two roles: two joined rows
    nobody = factories.user("nobody")
    factories.grant(nobody, factories.event(slug="elsewhere"), "chief_referee")
    for user in (event.chief, event.referee, nobody):
        user = type(user).objects.get(pk=user.pk)  # nothing remembered
        with django_assert_num_queries(1):
            found = lookups.match_in_event(event.event.slug, event.match.pk, user)
            remembered = permissions.user_roles(user, found.round.event)
        fresh = type(user).objects.get(pk=user.pk)
        assert remembered == permissions.user_roles(fresh, event.event)
    assert remembered == frozenset()  # nobody holds no role here, whatever they hold elsewhere
    assert permissions.user_roles(event.chief, event.event) >= {"chief_referee", "organiser"}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_parallel_confirmed_first_versions_store_one_counting_version(event):
    """Version 1 takes no match lock: the unique number and the one-counting constraint
    decide between concurrent first submissions."""

    def submit(i):
        record = guandan_record() | {"tag": i}
        return result_entry.submit(event.match, record, actor(event.chief), 0, confirm=True)

    outcomes = _run_threads(submit)
    stored = [o for o in outcomes if isinstance(o, ResultVersion)]
    refused = [o for o in outcomes if isinstance(o, ChangedMeanwhile)]
    assert len(stored) == 1 and len(refused) == THREADS - 1, outcomes
    versions = ResultVersion.objects.filter(match=event.match)
    assert versions.count() == 1 and versions.get().is_counting
    assert AuditLog.objects.filter(action="result.submission").count() == 1
    assert AuditLog.objects.filter(action="result.conflict").count() == THREADS - 1


def _session_engine(cache_url: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "CACHE_URL"}
    env |= {"DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "1"}
    if cache_url:
        env["CACHE_URL"] = cache_url
    code = (
        "import django; django.setup(); from importlib import import_module; "
        "from django.conf import settings; from django.contrib.sessions.backends import db; "
        "store = import_module(settings.SESSION_ENGINE).SessionStore; "
        "print('database' if issubclass(store, db.SessionStore) else settings.SESSION_ENGINE)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    )
    return out.stdout.strip()


def test_sessions_live_in_the_database_even_with_a_shared_cache():
    """A Redis outage neither logs anyone out nor, once Redis is back, revives a session
    ended meanwhile (issue 13, finding 2)."""
    assert _session_engine("redis://127.0.0.1:6379/9") == "database"
    assert _session_engine(None) == "database"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_revision_bump_sent_with_the_commit_commits_once_and_runs_the_commit_hooks(event):
    """On PostgreSQL the outermost batch sends its bump with the COMMIT (one round trip)."""
    from django.db import connection

    from tournaments.freshness import revision, revision_batch

    before = revision(event.event)
    result_entry.submit(event.match, guandan_record(), actor(event.chief), 0, confirm=True)
    assert revision(event.event) == before + 1
    assert not connection.in_atomic_block and connection.get_autocommit()
    result_entry.submit(event.match2, guandan_record(), actor(event.chief), 0, confirm=True)
    assert revision(event.event) == before + 2
    # the on-commit look completed the round once its last result was in
    assert Round.objects.get(pk=event.round.pk).status == Round.Status.COMPLETE
    # a COMMIT that fails (a deferred foreign key) raises inside the batch: nothing is kept
    with pytest.raises(IntegrityError), revision_batch():
        from tournaments.freshness import invalidate

        ResultVersion(match_id=10**9, number=1, record={}, outcome={}).save(force_insert=True)
        invalidate(event.event)
    assert revision(event.event) == before + 2
    assert not ResultVersion.objects.filter(match_id=10**9).exists()
    assert ResultVersion.objects.filter(match__round=event.round).count() == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_bump_sent_with_the_commit_is_in_django_s_query_log(event):
    """The combined UPDATE…; COMMIT bypasses Django's cursor; it is still logged, so the
    debug toolbar and CaptureQueriesContext see every statement a request sends."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        result_entry.submit(event.match, guandan_record(), actor(event.chief), 0, confirm=True)
    bumps = [q["sql"] for q in captured if "bumps = " in q["sql"]]
    assert len(bumps) == 1 and bumps[0].endswith("; COMMIT")
    assert f"VALUES ({event.event.pk}, " in bumps[0]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_commits_of_one_event_wait_for_each_other_only_on_the_same_revision_counter(event):
    """Issue 14: a revision counter stays locked until its transaction has committed (WAL
    flush included). With one counter an event, every result of the event queued behind
    the commit before it; a bump on another counter goes straight through."""
    import psycopg
    from django.db import connection, transaction
    from django.utils import timezone

    from tournaments.freshness import revision, revision_sql

    pk = event.event.pk
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    before = revision(pk)
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(revision_sql(), [pk, 0, timezone.now()])  # held open: counter 0 locked
        with psycopg.connect(**params, autocommit=True) as other:
            other.execute("SET lock_timeout = '2s'")
            other.execute(revision_sql(), [pk, 1, timezone.now()])  # another counter: at once
            with pytest.raises(psycopg.errors.LockNotAvailable):
                other.execute(revision_sql(), [pk, 0, timezone.now()])
    assert revision(pk) == before + 2  # both the open one and the other counter's


def test_the_event_lookup_reads_the_event_and_its_revision_in_one_query(
    event, django_assert_num_queries
):
    """Every page and API request loads its event by SQL built once (the ORM compiling the
    revision's subqueries cost 1 ms of CPU a public request), the revision with it."""
    from tournaments.freshness import invalidate, revision
    from tournaments.models import Event

    invalidate(event.event)
    invalidate(event.event)
    with django_assert_num_queries(1):
        loaded = lookups.event(event.event.slug)
        held, at = loaded.revision, loaded.revised_at
    assert held == revision(event.event) and type(held) is int
    assert at is not None and at.tzinfo is not None
    orm = Event.objects.get(pk=event.event.pk)
    assert [getattr(loaded, f.attname) for f in Event._meta.concrete_fields] == [
        getattr(orm, f.attname) for f in Event._meta.concrete_fields
    ]
    with pytest.raises(NotFound):
        lookups.event("no-such-event")
