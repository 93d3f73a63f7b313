"""Finding 4 of issue 13: logins are throttled per account and per address on the login page,
the admin and the API; a locked login costs no password hash; the chief referee lifts a lock."""

from __future__ import annotations

import base64
import re
from unittest import mock

import pytest
from django.contrib.auth.backends import ModelBackend

from tournaments.models import AuditLog

pytestmark = pytest.mark.django_db

LIMIT = 5


@pytest.fixture(autouse=True)
def limits(settings):
    settings.AXES_FAILURE_LIMIT = LIMIT
    settings.PAISAI_LOGIN_ADDRESS_LIMIT = 12


def basic(username: str, password: str) -> dict:
    token = base64.b64encode(f"{username}:{password}".encode()).decode()
    return {"HTTP_AUTHORIZATION": f"Basic {token}"}


def is_logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_login_throttled_after_failures_on_the_login_page(client, make_user):
    user = make_user("referee1")
    answers = [
        client.post("/accounts/login/", {"username": "referee1", "password": "wrong"})
        for _ in range(LIMIT)
    ]
    assert [a.status_code for a in answers[:-1]] == [200] * (LIMIT - 1)  # the form again
    assert answers[-1].status_code == 429
    # The right password no longer logs in, and the page says why in Chinese (default) …
    response = client.post("/accounts/login/", {"username": "referee1", "password": "pw-referee1"})
    assert response.status_code == 429 and not is_logged_in(client)
    assert "登录失败次数过多" in response.content.decode()
    # … or English.
    response = client.post("/accounts/login/", {"username": user.username, "password": "x"},
                           HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    assert "Too many failed logins" in response.content.decode()


def test_login_throttled_after_failures_on_the_admin(client, make_user):
    make_user("admin1", is_staff=True, is_superuser=True)
    for _ in range(LIMIT):
        client.post("/admin/login/", {"username": "admin1", "password": "wrong"})
    response = client.post("/admin/login/?next=/admin/",
                           {"username": "admin1", "password": "pw-admin1"})  # fmt: skip
    assert response.status_code == 429 and not is_logged_in(client)


def test_login_throttled_after_failures_on_the_api(client, make_user, make_tournament):
    make_user("api1")
    tournament = make_tournament(teams=2)
    url = f"/api/tournaments/{tournament.slug}/teams/"
    for _ in range(LIMIT - 1):
        assert client.get(url, **basic("api1", "wrong")).status_code in (401, 403)
    response = client.get(url, **basic("api1", "wrong"))
    assert response.status_code == 429
    body = response.json()
    assert (
        body["field"] == "username"
        and "Too many failed logins"
        in client.get(url, HTTP_ACCEPT_LANGUAGE="en", **basic("api1", "pw-api1")).json()["error"]
    )
    assert response["Retry-After"] == "900"
    # The right password is refused too, without hashing anything.
    with mock.patch.object(ModelBackend, "authenticate", autospec=True) as backend:
        assert client.get(url, **basic("api1", "pw-api1")).status_code == 429
    backend.assert_not_called()


def test_login_throttled_per_address_across_accounts(client, make_user):
    """Spraying passwords over many accounts from one address locks the address."""
    make_user("victim")
    for n in range(12):
        client.post("/accounts/login/", {"username": f"nobody{n}", "password": "x"})
    response = client.post("/accounts/login/", {"username": "victim", "password": "pw-victim"})
    assert response.status_code == 429 and not is_logged_in(client)
    # Another address still logs the victim in: the account itself is not locked.
    response = client.post("/accounts/login/", {"username": "victim", "password": "pw-victim"},
                           REMOTE_ADDR="10.9.9.9")  # fmt: skip
    assert response.status_code == 302


def test_a_forwarded_for_header_does_not_escape_the_address_lock(client, make_user):
    """Without a trusted proxy X-Forwarded-For is ignored, so it cannot fake a new address."""
    make_user("victim")
    for n in range(12):
        client.post("/accounts/login/", {"username": f"nobody{n}", "password": "x"},
                    HTTP_X_FORWARDED_FOR=f"10.0.0.{n}")  # fmt: skip
    response = client.post("/accounts/login/", {"username": "victim", "password": "pw-victim"},
                           HTTP_X_FORWARDED_FOR="10.1.1.1")  # fmt: skip
    assert response.status_code == 429


def test_the_chief_referee_lifts_a_lock(client, make_user, make_tournament, grant):
    tournament = make_tournament(teams=2)
    referee = grant(make_user("referee1"), tournament, "table_referee", tables=[1])
    chief = grant(make_user("chief1"), tournament, "chief_referee")
    stranger = make_user("stranger")
    for _ in range(LIMIT):
        client.post("/accounts/login/", {"username": "referee1", "password": "wrong"},
                    REMOTE_ADDR="10.2.2.2")  # fmt: skip
    client.post("/accounts/login/", {"username": "stranger", "password": "w"})

    chief_client = type(client)()
    chief_client.force_login(chief)
    page = chief_client.get(f"/t/{tournament.slug}/manage/lockouts/", HTTP_ACCEPT_LANGUAGE="en")
    body = page.content.decode()
    assert page.status_code == 200 and "referee1" in body and "Locked" in body
    assert "stranger" not in body  # only this event's people
    # Someone else's lock is not the chief's to lift.
    chief_client.post(f"/t/{tournament.slug}/manage/lockouts/", {"username": "stranger"})
    response = chief_client.post(f"/t/{tournament.slug}/manage/lockouts/",
                                 {"username": "referee1"})  # fmt: skip
    assert response.status_code == 302
    response = client.post("/accounts/login/",
                           {"username": "referee1", "password": "pw-referee1"},
                           REMOTE_ADDR="10.2.2.2")  # fmt: skip
    assert response.status_code == 302 and int(client.session["_auth_user_id"]) == referee.pk
    entry = AuditLog.objects.get(action="login.unlock")
    assert entry.actor == chief and entry.data["username"] == "referee1"
    assert stranger.username not in AuditLog.objects.values_list("data", flat=True)[0].values()
    # A table referee may not open the page.
    referee_client = type(client)()
    referee_client.force_login(referee)
    assert referee_client.get(f"/t/{tournament.slug}/manage/lockouts/").status_code == 403


def test_api_clients_use_a_token_made_and_revoked_on_a_page(client, make_user, make_tournament,
                                                            grant):  # fmt: skip
    """Instead of sending a password with every request (basic auth), a client sends a token
    made on the 'API token' page; a revoked token or a deactivated user's is refused."""
    tournament = make_tournament(teams=2)
    organiser = grant(make_user("org1"), tournament, "organiser")
    client.force_login(organiser)
    page = client.post("/accounts/api-token/", {"action": "issue"}).content.decode()
    key = re.search(r'<code id="new-token">(\w+)</code>', page).group(1)
    assert key not in client.get("/accounts/api-token/").content.decode()  # shown once
    assert AuditLog.objects.filter(action="api_token.issue", actor=organiser).exists()
    assert key not in str(AuditLog.objects.values_list("data", flat=True))

    api = type(client)()
    url = f"/api/tournaments/{tournament.slug}/teams/"
    body = {"name": "Token team", "unit": "", "players": ["A", "B"]}
    response = api.post(url, body, content_type="application/json",
                        HTTP_AUTHORIZATION=f"Token {key}")  # fmt: skip
    assert response.status_code == 201
    # A wrong token is refused without hashing anything.
    with mock.patch.object(ModelBackend, "authenticate", autospec=True) as backend:
        assert api.get(url, HTTP_AUTHORIZATION="Token nope").status_code in (401, 403)
    backend.assert_not_called()

    client.post("/accounts/api-token/", {"action": "revoke"})
    response = api.post(url, body | {"name": "Again"}, content_type="application/json",
                        HTTP_AUTHORIZATION=f"Token {key}")  # fmt: skip
    assert response.status_code in (401, 403)
    page = client.post("/accounts/api-token/", {"action": "issue"}).content.decode()
    key = re.search(r'<code id="new-token">(\w+)</code>', page).group(1)
    organiser.is_active = False
    organiser.save()
    response = api.get(url, HTTP_AUTHORIZATION=f"Token {key}")
    assert response.status_code in (401, 403)
