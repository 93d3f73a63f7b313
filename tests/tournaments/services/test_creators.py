"""Who may create events: the event-creator right given on a page, or open creation."""

from __future__ import annotations

import pytest

from tests import factories
from tournaments import permissions
from tournaments.errors import Forbidden
from tournaments.models import AuditLog
from tournaments.services import creators


def test_a_user_without_the_right_is_told_whom_to_ask(client, db):
    client.force_login(factories.user())
    response = client.get("/new/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 403
    assert "site administrator" in response.content.decode()


def test_site_admin_gives_and_takes_the_right_on_a_page(client, db):
    admin = factories.user("site-admin", is_superuser=True, is_staff=True)
    user = factories.user("王组委")
    client.force_login(admin)
    client.post("/event-creators/", {"username": "王组委"})
    user = type(user).objects.get(pk=user.pk)  # permissions are cached per object
    assert permissions.can_create_event(user)
    assert "王组委" in client.get("/event-creators/").content.decode()
    client.post("/event-creators/", {"username": "王组委", "action": "revoke"})
    assert not permissions.can_create_event(type(user).objects.get(pk=user.pk))
    assert list(AuditLog.objects.values_list("action", flat=True).order_by("pk")) == [
        "creator.grant",
        "creator.revoke",
    ]


def test_only_a_site_admin_gives_the_right(client, db):
    organiser = factories.user()
    with pytest.raises(Forbidden):
        creators.set_creator(organiser, organiser.username, True)
    client.force_login(organiser)
    assert client.get("/event-creators/").status_code == 403


def test_open_event_creation_lets_every_signed_up_user_create(client, db, settings):
    settings.PAISAI_OPEN_EVENT_CREATION = True
    client.force_login(factories.user())
    assert client.get("/new/").status_code == 200
