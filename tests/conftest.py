"""Shared fixtures: events, users with per-tournament roles, API clients."""

from __future__ import annotations

import itertools
import os

import pytest
from django.contrib.auth import get_user_model
from hypothesis import settings
from rest_framework.test import APIClient

_counter = itertools.count(1)

# CI runs the same hypothesis examples every time (a red build is reproducible); developers
# get fresh random examples on each run.
settings.register_profile("ci", derandomize=True, deadline=None, database=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def make_user(db):
    def make(username: str | None = None, **extra):
        username = username or f"user{next(_counter)}"
        user = get_user_model().objects.create_user(
            username=username, password="pw-" + username, **extra
        )
        return user

    return make


@pytest.fixture
def make_tournament(db, make_user):
    from tournaments.models import Player, Team, Tournament, Unit

    def make(
        teams: int = 0, units: int = 2, game: str = "guandan", preset: str | None = None, **fields
    ):
        n = next(_counter)
        preset = (
            preset
            or {"guandan": "guandan-suzhou-2016", "tractor": "tractor", "chengyu": "chengyu"}[game]
        )
        tournament = Tournament.objects.create(
            name=fields.pop("name", f"Event {n}"),
            slug=fields.pop("slug", f"event-{n}"),
            game=game,
            preset=preset,
            **fields,
        )
        unit_objs = [
            Unit.objects.create(tournament=tournament, name=f"Unit {i + 1}") for i in range(units)
        ]
        for i in range(teams):
            team = Team.objects.create(
                tournament=tournament,
                name=f"Team {i + 1:03d}",
                unit=unit_objs[i % len(unit_objs)] if unit_objs else None,
            )
            Player.objects.bulk_create(
                [Player(team=team, name=f"P{i + 1}-{s}", seat_order=s) for s in (1, 2)]
            )
        return tournament

    return make


@pytest.fixture
def grant(db):
    from tournaments.models import TableAssignment, TournamentRole

    def grant(user, tournament, role: str, team=None, tables=()):
        TournamentRole.objects.create(user=user, tournament=tournament, role=role, team=team)
        for table in tables:
            TableAssignment.objects.create(tournament=tournament, user=user, table_number=table)
        return user

    return grant


@pytest.fixture
def api():
    """An API client that asks for English answers (the API speaks Chinese by default)."""
    return APIClient(HTTP_ACCEPT_LANGUAGE="en")


@pytest.fixture
def api_as(api):
    def login(user):
        api.force_authenticate(user)
        return api

    return login


def pytest_collection_modifyitems(config, items):
    """Tests marked ``postgres`` need PostgreSQL (CI runs the suite there); skip them on SQLite."""
    from django.db import connection

    if connection.vendor == "postgresql":
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL; CI does)")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _english_outside_requests():
    """Service code (no request) speaks the active language; tests read its English messages.
    Pages still choose their language per request (Chinese by default) via LocaleMiddleware."""
    from django.utils import translation

    with translation.override("en"):
        yield
