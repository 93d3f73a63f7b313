"""config.sessions and config.auth: Django's sessions and login, read by prebuilt SQL, behave
as Django's own (who is logged in, expiry, inactive users, sessions stored before)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from config.sessions import SessionStore
from tests import factories


def _session(user, backend="config.auth.ModelBackend") -> str:
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = backend
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


def _who(key: str) -> str | None:
    client = Client()
    client.cookies["sessionid"] = key
    response = client.get("/accounts/api-token/")  # a page that needs a login
    return None if response.status_code == 302 else response.wsgi_request.user.username


@pytest.mark.django_db
def test_a_logged_in_session_is_read_with_its_user():
    user = factories.user("ref1")
    assert _who(_session(user)) == "ref1"


@pytest.mark.django_db
def test_a_session_stored_with_djangos_own_backend_path_still_logs_in():
    user = factories.user("ref2")
    assert _who(_session(user, "django.contrib.auth.backends.ModelBackend")) == "ref2"


@pytest.mark.django_db
def test_an_expired_unknown_or_foreign_session_logs_nobody_in():
    user = factories.user("ref3")
    key = _session(user)
    Session.objects.filter(pk=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    assert _who(key) is None
    assert _who("x" * 32) is None
    assert _who(_session(user, "some.other.Backend")) is None


@pytest.mark.django_db
def test_an_inactive_user_or_a_changed_password_logs_the_session_out():
    user = factories.user("ref4")
    key = _session(user)
    user.set_password("new-password-4")
    user.save()
    assert _who(key) is None  # the session's password hash no longer matches
    key = _session(user)
    user.is_active = False
    user.save()
    assert _who(key) is None


@pytest.mark.django_db
def test_login_through_the_page_records_the_prebuilt_backend():
    factories.user("ref5")
    client = Client()
    response = client.post("/accounts/login/", {"username": "ref5", "password": "pw-ref5"})
    assert response.status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == "config.auth.ModelBackend"
