"""schemathesis drives every operation of the OpenAPI schema in-process: never a 5xx.

An authenticated organiser (also chief referee) of a small event with a round in play, so
that generated requests reach real code paths; basic auth with a fast hasher keeps each call
cheap. Bounded: a few examples per operation, no shrinking, no example database.
"""

from __future__ import annotations

import base64

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings

from config.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)

PASSWORD = "pw-schema-org"


@pytest.fixture
def auth_header(settings_override, make_tournament, make_user, grant):
    from tournaments.models import Match, Round, Team

    tournament = make_tournament(teams=4, slug="schema")
    teams = list(Team.objects.filter(tournament=tournament))
    round_ = Round.objects.create(tournament=tournament, number=1, status="in_play")
    Match.objects.create(round=round_, table_number=1, home=teams[0], away=teams[1])
    user = make_user("schema-org")
    grant(user, tournament, "organiser")
    grant(user, tournament, "chief_referee")
    token = base64.b64encode(f"{user.username}:{PASSWORD}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


@pytest.fixture(autouse=True)
def keep_the_test_connection():
    """The WSGI handler closes the DB connection at the end of each request (CONN_MAX_AGE=0);
    inside a test transaction that would kill it, so do what Django's test client does."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def settings_override(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return settings


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=8,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_api_never_answers_5xx(case, auth_header):
    response = case.call(headers=auth_header)
    assert response.status_code < 500, (case.method, case.path, response.text[:500])
