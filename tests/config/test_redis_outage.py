"""Redis is an accelerator, never a single point of failure (issue 13, finding 2).

With CACHE_URL at a dead port every answer comes from the database: a counting submission
answers 201 with its version stored, login and session requests work, the public pages and
APIs answer 200; and once Redis is back, the standings are current (the event revision lives
in the database, so nothing cached before or during the outage can answer for it).
"""

from __future__ import annotations

import pytest
from django.core.cache import cache, caches
from django.test import Client

from tests.factories import guandan_record
from tournaments.models import Event, ResultVersion

DEAD_PORT = 18899  # in this helper's port range; nothing listens there
DEAD_CACHE = {
    "default": {
        "BACKEND": "config.cache.FailSafeRedisCache",
        "LOCATION": f"redis://127.0.0.1:{DEAD_PORT}/0",
    }
}


def live_cache(private_redis) -> dict:
    """The cache on the test process's own Redis (tests/redis_server.py): the test clears
    it, so it is never a Redis a running site uses."""
    location = f"{private_redis}/0"
    return {"default": {"BACKEND": "config.cache.FailSafeRedisCache", "LOCATION": location}}


pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_down(settings):
    settings.CACHES = DEAD_CACHE
    return settings


def login(user) -> Client:
    client = Client()
    response = client.post(
        "/accounts/login/", {"username": user.username, "password": "pw-" + user.username}
    )
    assert response.status_code == 302, response.content[:300]
    return client


def submit(client, event, match=None):
    match = match or event.match
    path = f"/api/tournaments/{event.event.slug}/matches/{match.pk}/result/"
    body = {"record": guandan_record(), "base_version": 0, "confirm": True}
    return client.post(path, body, content_type="application/json")


def test_redis_down_submission_answers_201(redis_down, event):
    client = login(event.chief)
    before = Event.objects.get(pk=event.event.pk).revision
    response = submit(client, event)
    assert response.status_code == 201, response.content[:300]
    version = ResultVersion.objects.get(match=event.match)
    assert version.is_counting and response.json()["number"] == version.number == 1
    # the standings revision moved with the commit, in the database
    assert Event.objects.get(pk=event.event.pk).revision > before
    # a retry by the referee is not told "changed meanwhile" about a 500 it never saw
    assert ResultVersion.objects.filter(match=event.match).count() == 1


def test_redis_down_login_works(redis_down, event):
    client = login(event.referee)
    page = client.get(f"/t/{event.event.slug}/")
    assert page.status_code == 200 and event.referee.username in page.content.decode()
    assert client.post("/accounts/logout/").status_code == 302
    assert event.referee.username not in client.get(f"/t/{event.event.slug}/").content.decode()


def test_redis_down_standings_page_and_api_answer_200(redis_down, event):
    submit(login(event.chief), event)
    anonymous = Client()
    slug = event.event.slug
    for path in (
        f"/t/{slug}/standings/",
        f"/t/{slug}/pairings/",
        f"/t/{slug}/projector/",
        f"/t/{slug}/teams/{event.teams[0].pk}/",
        f"/api/tournaments/{slug}/public/standings/",
        f"/api/tournaments/{slug}/public/pairings/",
        f"/api/tournaments/{slug}/public/clock/",
    ):
        assert anonymous.get(path).status_code == 200, path
    standings = anonymous.get(f"/api/tournaments/{slug}/public/standings/").json()
    rows = standings["results"] if isinstance(standings, dict) else standings
    assert {row["name"]: row["points"] for row in rows}[event.teams[0].name] > 0


@pytest.mark.redis
def test_standings_are_current_after_redis_comes_back(settings, event, private_redis):
    LIVE_CACHE = live_cache(private_redis)
    settings.CACHES = LIVE_CACHE
    cache.clear()
    anonymous = Client()
    api = f"/api/tournaments/{event.event.slug}/public/standings/"

    def points() -> dict:
        answer = anonymous.get(api).json()
        rows = answer["results"] if isinstance(answer, dict) else answer
        return {row["name"]: row["points"] for row in rows}

    assert points()[event.teams[0].name] == 0  # no result yet; this answer is in Redis now
    settings.CACHES = DEAD_CACHE  # Redis goes away; a result is confirmed meanwhile
    submit(login(event.chief), event)
    settings.CACHES = LIVE_CACHE  # Redis is back, holding the answer from before the outage
    assert points()[event.teams[0].name] > 0
    cache.clear()


def test_a_dead_cache_is_skipped_for_a_while_then_tried_again(redis_down, monkeypatch):
    from config import cache as failsafe

    backend = caches["default"]
    assert backend.get("anything", "fallback") == "fallback"
    assert not backend.available  # the failure opened the breaker
    assert backend.set("key", 1) is False and backend.get_many(["key"]) == {}
    with pytest.raises(ValueError):
        backend.incr("key")
    calls = []
    monkeypatch.setattr(failsafe.RedisCache, "get", lambda *args: calls.append(args))
    backend.get("skipped")
    assert calls == []  # no connection attempt while the breaker is open
    backend._down_until = 0
    backend.get("tried")
    assert len(calls) == 1
