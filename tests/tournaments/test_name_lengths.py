"""Issue 39: team and player names have one limit each (tournaments/models/events.py: 60 and
40 characters), the database's, the page's, the API's and the import's the same; a longer
name is refused naming its field (a 160-character team name was accepted)."""

from __future__ import annotations

import io
import re

import pytest
from django.test import Client
from openpyxl import Workbook
from rest_framework.test import APIClient

from tournaments.models import PLAYER_NAME_MAX, TEAM_NAME_MAX, Player, Team
from tournaments.services.registration_import import import_teams

pytestmark = pytest.mark.django_db


def test_the_limits_are_the_columns():
    assert Team._meta.get_field("name").max_length == TEAM_NAME_MAX == 60
    assert Player._meta.get_field("name").max_length == PLAYER_NAME_MAX == 40


def page(event):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(event.organiser)
    return client, f"/t/{event.event.slug}/manage/teams/new/"


def test_the_team_page_says_the_columns_limits(event):
    client, url = page(event)
    form = client.get(url).content.decode()
    assert re.search(rf'name="name"[^>]*maxlength="{TEAM_NAME_MAX}"', form)
    assert re.search(rf'name="player1"[^>]*maxlength="{PLAYER_NAME_MAX}"', form)


@pytest.mark.parametrize(
    "field, value",
    [("name", "队" * 160), ("name", "T" * 61), ("player1", "甲" * 41), ("player2", "x" * 41)],
)
def test_the_team_page_refuses_a_name_past_its_limit_naming_the_field(event, field, value):
    client, url = page(event)
    data = {"name": "新队", "player1": "新甲", "player2": "新乙", "status": "active"}
    response = client.post(url, data | {field: value})
    assert response.status_code == 200  # the form again, with the error on its field
    errors = response.context["form"].errors
    assert list(errors) == [field] and "at most" in errors[field][0]
    assert not Team.objects.filter(event=event.event, name=data["name"]).exists()


@pytest.mark.parametrize(
    "body, field",
    [
        ({"name": "队" * 160, "players": ["甲", "乙"]}, "name"),
        ({"name": "新队", "players": ["甲" * 41, "乙"]}, "players.0"),
    ],
)
def test_the_api_refuses_a_name_past_its_limit_naming_the_field(event, body, field):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(event.organiser)
    response = api.post(f"/api/tournaments/{event.event.slug}/teams/", body, format="json")
    assert response.status_code == 400, response.content[:300]
    answer = response.json()
    assert answer["field"] == field and answer["code"] == "invalid", answer
    assert not Team.objects.filter(event=event.event, name=body["name"]).exists()


def test_names_at_the_limit_are_accepted_on_the_api(event):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(event.organiser)
    body = {"name": "队" * TEAM_NAME_MAX, "players": ["甲" * PLAYER_NAME_MAX, "乙"]}
    response = api.post(f"/api/tournaments/{event.event.slug}/teams/", body, format="json")
    assert response.status_code == 201, response.content[:300]


def test_the_import_refuses_a_160_character_team_name(event):
    book = Workbook()
    book.active.append(["队名 Team", "单位 Unit", "队员1 Player 1", "队员2 Player 2"])
    book.active.append(["队" * 160, "U", "甲" * 41, "乙"])
    out = io.BytesIO()
    book.save(out)
    report = import_teams(event.event, event.organiser, out.getvalue())
    [(row, problems)] = report.errors
    assert row == 2 and f"longer than {TEAM_NAME_MAX} characters" in problems
    assert f"longer than {PLAYER_NAME_MAX} characters" in problems
