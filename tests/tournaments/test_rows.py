"""tournaments.sql.rows: the prebuilt SQL makes and stores rows exactly as the ORM does."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import IntegrityError, transaction
from django.db.models.signals import post_save, pre_save

from tests import factories
from tests.factories import guandan_record
from tournaments.freshness import revision
from tournaments.models import AuditLog, Event, ResultVersion
from tournaments.sql import rows


def _values(obj) -> list:
    return [getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields]


@pytest.mark.django_db
def test_select_one_makes_the_instance_the_orm_makes(event):
    for model, pk in ((Event, event.event.pk), (get_user_model(), event.chief.pk)):
        made = rows.select_one(model, 'x."id" = %s', [pk])
        orm = model.objects.get(pk=pk)
        assert _values(made) == _values(orm)
        assert made._state.adding is False and made._state.db == "default"
    assert isinstance(made.date_joined.tzinfo, type(orm.date_joined.tzinfo))  # converted
    assert rows.select_one(Event, 'x."id" = %s', [10**9]) is None


@pytest.mark.django_db
def test_insert_stores_what_save_stores_with_its_defaults_and_signals(event):
    seen = []

    def note(sender, instance, **kwargs):
        seen.append((kwargs.get("created"), instance.pk))

    pre_save.connect(note, sender=AuditLog, dispatch_uid="t-pre")
    post_save.connect(note, sender=AuditLog, dispatch_uid="t-post")
    try:
        entry = rows.insert(
            AuditLog(
                event=event.event,
                actor=event.chief,
                actor_name="chief",
                action="x.y",
                data={"k": ["中", 1]},
            )
        )
    finally:
        pre_save.disconnect(dispatch_uid="t-pre", sender=AuditLog)
        post_save.disconnect(dispatch_uid="t-post", sender=AuditLog)
    assert seen == [(None, None), (True, entry.pk)]  # pre_save before the key, post_save after
    stored = AuditLog.objects.get(pk=entry.pk)
    assert _values(stored) == _values(entry)
    assert stored.created_at is not None and stored.data == {"k": ["中", 1]}  # auto_now_add, JSON
    assert entry._state.adding is False


@pytest.mark.django_db
def test_a_counting_version_inserted_bumps_the_event_revision_and_keeps_the_names(event):
    before = revision(event.event)
    version = ResultVersion(
        match=event.match,
        number=1,
        record=guandan_record(),
        outcome={},
        created_by=event.chief,
        is_counting=True,
    )
    version.save(force_insert=True)  # the insert of tournaments.sql.rows
    assert revision(event.event) == before + 1  # the post_save signal's bump
    assert ResultVersion.objects.get(pk=version.pk).created_by_name == event.chief.username


@pytest.mark.django_db
def test_a_refused_insert_raises_and_leaves_the_transaction_to_roll_back(event):
    ResultVersion.objects.create(match=event.match, number=1, record={}, outcome={})
    with pytest.raises(IntegrityError), transaction.atomic():
        ResultVersion(match=event.match, number=1, record={}, outcome={}).save(force_insert=True)
    assert ResultVersion.objects.filter(match=event.match).count() == 1


def test_insert_refuses_a_model_without_an_automatic_key():
    with pytest.raises(TypeError, match="auto key"):
        rows.insert(Session(session_key="k" * 32, session_data="", expire_date=None))


@pytest.mark.django_db
def test_a_new_field_is_selected_and_inserted_without_touching_rows():
    # Built from _meta: every concrete field of the model is in the statements.
    fields, sql, _ = rows._insert_sql(AuditLog, "default")
    assert {f.column for f in fields} == {
        f.column for f in AuditLog._meta.concrete_fields if f.column != "id"
    }
    assert all(f'"{f.column}"' in sql for f in fields)
    assert rows.columns(factories.event().__class__, "x")[0] == [
        f.attname for f in Event._meta.concrete_fields
    ]
