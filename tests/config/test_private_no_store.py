"""Issue 39: every answer to a logged-in user says ``Cache-Control: private, no-store`` (the
API-token page shows a new token once, and no browser history or proxy may keep it); public
answers to anonymous visitors keep their public caching."""

from __future__ import annotations

import pytest
from django.test import Client

from tournaments.services import logins

pytestmark = pytest.mark.django_db
NO_STORE = "private, no-store"


def test_the_api_token_page_is_never_stored(event):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(event.organiser)
    shown = client.post("/accounts/api-token/", {"action": "issue"})
    assert shown.status_code == 200 and shown["Cache-Control"] == NO_STORE
    assert client.get("/accounts/api-token/")["Cache-Control"] == NO_STORE


def test_every_page_for_a_logged_in_user_is_never_stored(event):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(event.organiser)
    slug = event.event.slug
    for path in ("/", f"/t/{slug}/", f"/t/{slug}/manage/", f"/t/{slug}/standings/", "/nowhere/"):
        response = client.get(path)
        assert response.get("Cache-Control") == NO_STORE, (path, response.status_code)


def test_an_api_answer_to_a_token_is_never_stored(event):
    key = logins.issue_api_token(event.organiser, "127.0.0.1")
    client = Client(HTTP_AUTHORIZATION=f"Token {key}")
    response = client.get(f"/api/tournaments/{event.event.slug}/teams/")
    assert response.status_code == 200 and response["Cache-Control"] == NO_STORE


def test_an_anonymous_public_page_keeps_its_public_caching(event):
    response = Client().get(f"/t/{event.event.slug}/standings/")
    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")
