"""A team's name (and seed) is its own within its event: decided by the registration service
(registration.taken_names / seed_taken) and held by the database's constraints; the form,
the API and the import ask the service and show its words."""

from __future__ import annotations

import io

import pytest
from django.db import IntegrityError, transaction
from openpyxl import Workbook

from tests import factories
from tournaments.errors import ServiceError
from tournaments.models import Team
from tournaments.services import registration
from tournaments.services.registration_import import import_teams

TEAM = {"unit_name": "一中", "players": ["甲", "乙"], "seed": None}


@pytest.fixture
def world(make_event):
    event = make_event(units=0)
    user = factories.organiser_of(event)
    registration.save_team(event, user, name="红队", **{**TEAM, "seed": 1})
    return event, user


def test_the_service_refuses_a_taken_name_and_seed_in_words(world):
    event, user = world
    with pytest.raises(ServiceError) as refused:
        registration.save_team(event, user, name=" 红队 ", **{**TEAM, "players": ["丙", "丁"]})
    assert refused.value.field == "name" and "already registered" in refused.value.message
    with pytest.raises(ServiceError) as refused:
        registration.save_team(
            event, user, name="蓝队", **{**TEAM, "players": ["丙", "丁"], "seed": 1}
        )
    assert refused.value.field == "seed" and "this seed" in refused.value.message
    assert Team.objects.filter(event=event).count() == 1


def test_a_team_keeps_its_own_name_and_another_event_may_use_it(world, make_event):
    event, user = world
    team = Team.objects.get(event=event)
    registration.save_team(event, user, name="红队", team=team, **{**TEAM, "seed": 1})
    other = make_event(units=0)
    registration.save_team(other, factories.organiser_of(other), name="红队", **TEAM)
    assert registration.taken_names(event, ["红队", "蓝队"]) == {"红队"}
    assert registration.taken_names(event, ["红队"], exclude=team) == set()


def test_the_database_holds_the_rule_when_the_check_is_raced(world, monkeypatch):
    """Two registrations at once both pass the check; the constraint refuses the second, and
    the service says which rule in words."""
    event, user = world
    with pytest.raises(IntegrityError), transaction.atomic():
        Team.objects.create(event=event, name="红队")
    monkeypatch.setattr(registration, "taken_names", lambda *args, **kwargs: set())
    with pytest.raises(ServiceError) as refused:
        registration.save_team(event, user, name="红队", **{**TEAM, "players": ["丙", "丁"]})
    assert refused.value.field == "name" and "already registered" in refused.value.message


def test_the_page_shows_the_services_words_on_the_name(world, client):
    event, user = world
    client.force_login(user)
    data = {"name": "红队", "unit": "", "player1": "丙", "player2": "丁", "status": "active"}
    response = client.post(f"/t/{event.slug}/manage/teams/new/", data)
    assert response.status_code == 409
    assert "已有同名队伍报名。" in response.content.decode()


def test_the_api_answers_the_rule_in_the_readers_language(world, api_as):
    event, user = world
    api = api_as(user)
    url = f"/api/tournaments/{event.slug}/teams/"
    body = {"name": "红队", "players": ["丙", "丁"]}
    english = api.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    chinese = api.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert english.status_code == chinese.status_code == 409
    assert english.json()["field"] == chinese.json()["field"] == "name"
    assert english.json()["error"] == "A team with this name is already registered."
    assert chinese.json()["error"] != english.json()["error"]


def test_the_import_asks_the_service(world):
    event, user = world
    wb = Workbook()
    wb.active.append(["队名 Team", "单位 Unit", "队员1 Player 1", "队员2 Player 2"])
    wb.active.append(["红队", "U", "丙", "丁"])
    out = io.BytesIO()
    wb.save(out)
    report = import_teams(event, user, out.getvalue())
    assert not report.ok and "is already registered" in dict(report.errors)[2]
