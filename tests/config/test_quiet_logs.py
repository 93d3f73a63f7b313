"""Issue 39: a refusal (403, 404, 409) logs one line, never a traceback; a fault (500) still
logs its traceback. Every 403 of a page (``PermissionDenied``) wrote a traceback."""

from __future__ import annotations

import logging

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.raise_request_exception = False
    if user is not None:
        client.force_login(user)
    return client


def logged(caplog, answer) -> list[logging.LogRecord]:
    caplog.clear()
    response = answer()
    return response, [r for r in caplog.records if r.levelno >= logging.WARNING]


def assert_one_line(caplog, answer, status: int) -> None:
    response, records = logged(caplog, answer)
    assert response.status_code == status, response.content[:200]
    assert len(records) == 1, [r.getMessage() for r in records]
    record = records[0]
    assert record.exc_info is None and record.exc_text is None, record.getMessage()
    handler = logging.StreamHandler()
    text = handler.format(record)
    assert "Traceback" not in text and "\n" not in text, text
    assert str(response.wsgi_request.path) in text


def test_a_refusal_logs_one_line_and_no_traceback(event, make_user, caplog):
    caplog.set_level(logging.INFO)
    slug = event.event.slug
    stranger = client_of(make_user())
    organiser = client_of(event.organiser)
    taken = event.teams[1].name
    team = {"name": taken, "player1": "新甲", "player2": "新乙", "status": "active"}
    cases = [
        (lambda: stranger.get(f"/t/{slug}/manage/"), 403),  # a page's PermissionDenied
        (lambda: stranger.get(f"/t/{slug}/manage/roles/new/"), 403),
        (lambda: stranger.post(f"/api/tournaments/{slug}/teams-import/", {}), 403),
        (lambda: stranger.get("/t/no-such-event/"), 404),
        (lambda: stranger.get("/api/tournaments/no-such-event/"), 404),
        (lambda: organiser.post(f"/t/{slug}/manage/teams/new/", team), 409),
    ]
    for answer, status in cases:
        assert_one_line(caplog, answer, status)


def test_a_fault_still_logs_its_traceback(event, caplog, monkeypatch):
    from tournaments.views import public

    def broken(*args, **kwargs):
        raise RuntimeError("a fault of the site")

    monkeypatch.setattr(public.EventDetailView, "get", broken)
    caplog.set_level(logging.INFO)
    response, records = logged(caplog, lambda: client_of(None).get(f"/t/{event.event.slug}/"))
    assert response.status_code == 500
    assert any(r.exc_info for r in records)
