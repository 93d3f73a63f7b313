"""The hand-built SQL of the hot paths (tournaments/sql/): one test per model it reads, each
comparing the SQL's answer with the ORM's, so a change of the model that the SQL does not
follow fails here. tournaments.sql.READS names the models; a model there without its test
fails the last test."""

from __future__ import annotations

import sys
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db.models import Max, Sum
from django.utils import timezone

from tests.factories import actor, guandan_record
from tournaments import sql
from tournaments.freshness import invalidate
from tournaments.models import (
    AuditLog,
    Event,
    EventRevision,
    EventRole,
    Match,
    ResultVersion,
    Round,
)
from tournaments.services import result_entry
from tournaments.sql import lookups, pending, revision, roles, rows


def fields(instance) -> list:
    return [getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields]


def test_session_read_by_rows_as_the_orm_reads_it(db):
    Session.objects.create(
        session_key="k" * 32, session_data="data", expire_date=timezone.now() + timedelta(hours=1)
    )
    found = rows.select_one(Session, 'x."session_key" = %s', ["k" * 32])
    assert fields(found) == fields(Session.objects.get(pk="k" * 32))


def test_user_read_by_rows_as_the_orm_reads_it(db):
    user = get_user_model().objects.create_user("reader", password="x" * 12)
    found = rows.select_one(get_user_model(), 'x."id" = %s', [user.pk])
    assert fields(found) == fields(get_user_model().objects.get(pk=user.pk))


def test_auditlog_inserted_by_rows_as_the_orm_stores_it(event):
    entry = rows.insert(
        AuditLog(
            event=event.event,
            actor=event.chief,
            action="result.enter",
            target_type="x",
            target_id="1",
        )
    )
    assert fields(entry) == fields(AuditLog.objects.get(pk=entry.pk))


def test_resultversion_inserted_by_rows_and_read_by_pending(event):
    assert pending.has_pending(event.round.pk)
    version = result_entry.submit(
        event.match, guandan_record(), actor(event.chief), 0, confirm=True
    )
    assert fields(version) == fields(ResultVersion.objects.get(pk=version.pk))
    orm_pending = (
        Match.objects.filter(round=event.round, away__isnull=False)
        .exclude(versions__is_counting=True)
        .exists()
    )
    assert pending.has_pending(event.round.pk) == orm_pending
    assert pending.has_pending(event.round.pk, event.match.table_number) == orm_pending


def test_match_read_by_lookups_as_the_orm_reads_it(event):
    found = lookups.match_in_event(event.event.slug, event.match.pk)
    assert fields(found) == fields(Match.objects.get(pk=event.match.pk))


def test_round_read_by_lookups_as_the_orm_reads_it(event):
    found = lookups.match_in_event(event.event.slug, event.match.pk)
    assert fields(found.round) == fields(Round.objects.get(pk=event.round.pk))


def test_event_read_by_lookups_as_the_orm_reads_it(event):
    found = lookups.event(event.event.slug)
    assert fields(found) == fields(Event.objects.get(pk=event.event.pk))
    match = lookups.match_in_event(event.event.slug, event.match.pk)
    assert fields(match.round.event) == fields(found)


def test_eventrole_read_by_roles_and_lookups_as_the_orm_reads_it(event):
    user = event.chief
    orm = frozenset(
        EventRole.objects.filter(user=user, event=event.event).values_list("role", flat=True)
    )
    assert roles.roles_of(user.pk, event.event.pk) == orm == {"chief_referee"}
    found = lookups.match_in_event(event.event.slug, event.match.pk, user)
    assert user._paisai_roles[found.round.event.pk] == orm


def test_eventrevision_read_and_bumped_as_the_orm_sums_it(event):
    invalidate(event.event)
    invalidate(event.event)
    rows_of = EventRevision.objects.filter(event=event.event)
    orm = rows_of.aggregate(total=Sum("bumps"), last=Max("at"))
    total, last = revision.current(event.event.pk)
    assert total == orm["total"]
    assert rows.field_value(EventRevision, "at", last) == orm["last"]
    assert lookups.event(event.event.slug).revision == total


def test_every_model_read_has_its_test():
    tests = [name for name in dir(sys.modules[__name__]) if name.startswith("test_")]
    for module, models in sql.READS.items():
        for label in models:
            name = label.split(".")[1].lower()
            assert any(t.startswith(f"test_{name}_") for t in tests), (module, label)
