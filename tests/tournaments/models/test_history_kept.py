"""Finding 5 of issue 13: removing a user or an object in the admin loses no history."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from tests.factories import actor, build_event, guandan_record
from tournaments.models import AuditLog, Match, ResultVersion, Round, RoundSlot, Team
from tournaments.services import result_confirm, result_entry
from tournaments.services.users import UserHasHistory

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(make_event, make_user, grant):
    return build_event(make_event, make_user, grant)


@pytest.fixture
def admin_client(client, make_user):
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    return client


def test_deleting_user_keeps_audit_identity(admin_client, event):
    """Deleting referee1 set ResultVersion.created_by and AuditLog.actor to NULL: now the user
    cannot be deleted once they entered something, is deactivated instead, and every version
    and audit entry keeps the username as text."""
    referee = event.referee
    version = result_entry.submit(event.match, guandan_record(), actor(referee), 0)
    result_confirm.confirm(event.match, version.number, actor(event.chief))
    version.refresh_from_db()
    assert version.created_by_name == "ref1" and version.confirmed_by_name == "chief"
    assert AuditLog.objects.filter(actor=referee, actor_name="ref1").exists()

    # The admin offers no delete for them (the page answers 403), and no bulk delete at all.
    response = admin_client.get(f"/admin/auth/user/{referee.pk}/delete/")
    assert response.status_code == 403
    changelist = admin_client.get("/admin/auth/user/").content.decode()
    assert "delete_selected" not in changelist and 'value="deactivate"' in changelist
    # Deleting by any other way is refused too.
    with pytest.raises(UserHasHistory), transaction.atomic():
        referee.delete()
    # Deactivating works, and is logged.
    response = admin_client.post(
        "/admin/auth/user/", {"action": "deactivate", "_selected_action": [referee.pk]}
    )
    assert response.status_code == 302
    referee.refresh_from_db()
    assert not referee.is_active
    assert AuditLog.objects.filter(action="user.deactivate", actor_name="root").exists()
    # A deactivated user's name stays on the record (and even a NULLed link keeps the text).
    ResultVersion.objects.filter(pk=version.pk).update(created_by=None)
    version.refresh_from_db()
    assert version.created_by_name == "ref1"


def test_a_user_without_history_can_still_be_deleted(admin_client, make_user):
    user = make_user("typo")
    response = admin_client.post(f"/admin/auth/user/{user.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not get_user_model().objects.filter(username="typo").exists()


def test_existing_rows_get_the_usernames_by_the_migration(event):
    """The migration's backfill: rows from before it get the names of their links."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("tournaments.migrations.0009_usernames_kept_as_text")
    version = result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    ResultVersion.objects.filter(pk=version.pk).update(created_by_name="")
    AuditLog.objects.update(actor_name="")

    class Editor:
        class connection:  # noqa: N801 - the shape the migration reads
            settings_dict: dict = {}

    migration.backfill(apps, Editor())
    version.refresh_from_db()
    assert version.created_by_name == "ref1"
    entries = AuditLog.objects.exclude(actor=None).values_list("actor_name", "actor__username")
    assert entries and all(name == username for name, username in entries)
    assert ("ref1", "ref1") in entries


def test_published_match_deletion_refused(admin_client, event):
    assert event.round.status == Round.Status.IN_PLAY
    for url in (
        f"/admin/tournaments/match/{event.match.pk}/delete/",
        f"/admin/tournaments/roundslot/{event.match.slots.first().pk}/delete/",
        f"/admin/tournaments/round/{event.round.pk}/delete/",
    ):
        assert admin_client.get(url).status_code == 403, url
        assert admin_client.post(url, {"post": "yes"}).status_code == 403, url
    for model in ("match", "roundslot", "round", "event", "team"):
        page = admin_client.get(f"/admin/tournaments/{model}/").content.decode()
        assert "delete_selected" not in page, model
    assert Match.objects.filter(pk=event.match.pk).exists()
    assert RoundSlot.objects.filter(match=event.match).count() == 2
    # An event with history cannot be deleted from the admin either.
    url = f"/admin/tournaments/event/{event.event.pk}/delete/"
    assert admin_client.get(url).status_code == 403


def test_a_draft_rounds_match_can_still_be_deleted(admin_client, make_event):
    event = make_event(teams=2)
    home, away = Team.objects.filter(event=event)
    draft = Round.objects.create(event=event, number=1)
    match = Match.objects.create(round=draft, table_number=1, home=home, away=away)
    response = admin_client.post(f"/admin/tournaments/match/{match.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Match.objects.filter(pk=match.pk).exists()
