"""Finding 4 of issue 13 and issue 31: logins are throttled by username and address on the
login page, the admin and the API; a locked login costs no password hash; a lock never stops
a known address or the event's table phone; the chief referee lifts a lock of the event's
people, never of staff."""

from __future__ import annotations

import base64
import re
from unittest import mock

import pytest
from django.contrib.auth.backends import ModelBackend

from tournaments.models import AuditLog

pytestmark = pytest.mark.django_db

LIMIT = 5
KNOWN_FACTOR = 4
ACCOUNT_CEILING = 20
ADDRESS_LIMIT = 30


@pytest.fixture(autouse=True)
def limits(settings):
    settings.AXES_FAILURE_LIMIT = LIMIT
    settings.PAISAI_LOGIN_KNOWN_ADDRESS_FACTOR = KNOWN_FACTOR
    settings.PAISAI_LOGIN_ACCOUNT_CEILING = ACCOUNT_CEILING
    settings.PAISAI_LOGIN_ADDRESS_LIMIT = ADDRESS_LIMIT


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
    response = client.post(
        "/accounts/login/", {"username": user.username, "password": "x"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "Too many failed logins" in response.content.decode()


def test_login_throttled_after_failures_on_the_admin(client, make_user):
    make_user("admin1", is_staff=True, is_superuser=True)
    for _ in range(LIMIT):
        client.post("/admin/login/", {"username": "admin1", "password": "wrong"})
    response = client.post(
        "/admin/login/?next=/admin/", {"username": "admin1", "password": "pw-admin1"}
    )
    assert response.status_code == 429 and not is_logged_in(client)


def test_login_throttled_after_failures_on_the_api(client, make_user, make_event):
    make_user("api1")
    event = make_event(teams=2)
    url = f"/api/tournaments/{event.slug}/teams/"
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
    assert response["Retry-After"] == "60"  # the first lock of a pair: one minute
    # The right password is refused too, without hashing anything.
    with mock.patch.object(ModelBackend, "authenticate", autospec=True) as backend:
        assert client.get(url, **basic("api1", "pw-api1")).status_code == 429
    backend.assert_not_called()


def test_spraying_usernames_from_the_hall_address_locks_nobody_who_logged_in_there(
    client, make_user
):
    """Issue 31: behind one address (a hall, a proxy) 30 wrong logins with made-up usernames
    locked every official. The address limit (issue 39) stops new usernames there, never a
    user who has logged in from that address before."""
    make_user("victim")
    hall = "10.9.9.9"
    assert login(client, "victim", "pw-victim", hall).status_code == 302
    client.logout()
    for n in range(ADDRESS_LIMIT + 5):
        login(client, f"nobody{n}", "x", hall)
    response = login(client, "victim", "pw-victim", hall)
    assert response.status_code == 302 and is_logged_in(client)


def login(client, username: str, password: str, address: str = "127.0.0.1"):
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_rule_a_known_address_relaxes_the_limit_but_never_removes_it(client, make_user):
    """Issue 39: one good login for the chief from an address, then 30 wrong passwords from
    it were 30 x 200 (behind a proxy with TRUSTED_PROXIES empty, every client's address)."""
    make_user("chief")
    phone = "10.4.4.4"
    assert login(client, "chief", "pw-chief", phone).status_code == 302
    client.logout()
    answers = [login(client, "chief", "guess", phone).status_code for _ in range(30)]
    known = LIMIT * KNOWN_FACTOR
    assert answers[: known - 1] == [200] * (known - 1)  # typos on one's own phone: room
    assert answers[known - 1 :] == [429] * (30 - known + 1)  # but a limit
    assert login(client, "chief", "pw-chief", phone).status_code == 429


def test_rule_an_account_has_a_ceiling_across_addresses(client, make_user):
    """Issue 39: 20 addresses x 5 wrong passwords were 100 guesses against `admin`; the
    account's failures from all addresses together meet a ceiling, which never stops the
    account at an address where it logged in before."""
    make_user("admin", is_staff=True, is_superuser=True)
    own = "10.1.1.1"
    assert login(client, "admin", "pw-admin", own).status_code == 302
    client.logout()
    refused = guessed = 0
    for n in range(20):
        for _ in range(LIMIT):
            status = login(type(client)(), "admin", "guess", f"10.3.0.{n}").status_code
            refused += status == 429
            guessed += status == 200
    assert guessed < ACCOUNT_CEILING  # the ceiling, not 20 x 4 guesses
    # a new address is refused at once, even with the right password …
    assert login(type(client)(), "admin", "pw-admin", "10.3.1.1").status_code == 429
    # … while the account's own phone still logs in
    assert login(client, "admin", "pw-admin", own).status_code == 302


def test_rule_many_usernames_sprayed_from_one_address_are_limited(client, make_user):
    """Issue 39: PAISAI_LOGIN_ADDRESS_LIMIT was documented and read by no code: 40 usernames
    sprayed from one address, 0 x 429."""
    for n in range(40):
        make_user(f"player{n}")
    answers = [login(client, f"player{n}", "123456", "10.2.3.4").status_code for n in range(40)]
    assert answers[:ADDRESS_LIMIT] == [200] * ADDRESS_LIMIT
    assert answers[ADDRESS_LIMIT:] == [429] * (40 - ADDRESS_LIMIT)
    english = client.post(
        "/accounts/login/",
        {"username": "player0", "password": "pw-player0"},
        REMOTE_ADDR="10.2.3.4",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert english.status_code == 429 and "from this address" in english.content.decode()
    # another address is not stopped
    assert login(type(client)(), "player0", "pw-player0", "10.2.3.5").status_code == 302


def test_locking_the_chief_from_another_address_does_not_stop_the_chief_at_a_known_one(
    client, make_user
):
    """Issue 31: anyone could lock the chief out before a round with five wrong passwords."""
    make_user("chief")
    chief_phone = "10.5.5.5"
    first = client.post(
        "/accounts/login/", {"username": "chief", "password": "pw-chief"}, REMOTE_ADDR=chief_phone
    )
    assert first.status_code == 302
    client.logout()
    attacker = type(client)()
    for _ in range(LIMIT * 3):
        attacker.post(
            "/accounts/login/", {"username": "chief", "password": "guess"}, REMOTE_ADDR="10.6.6.6"
        )
    locked = attacker.post(
        "/accounts/login/", {"username": "chief", "password": "pw-chief"}, REMOTE_ADDR="10.6.6.6"
    )
    assert locked.status_code == 429  # the attacker's address is locked for the chief …
    # … and wrong passwords typed on the chief's own phone do not lock it either
    for _ in range(LIMIT):
        client.post(
            "/accounts/login/", {"username": "chief", "password": "typo"}, REMOTE_ADDR=chief_phone
        )
    response = client.post(
        "/accounts/login/", {"username": "chief", "password": "pw-chief"}, REMOTE_ADDR=chief_phone
    )
    assert response.status_code == 302 and is_logged_in(client)


def test_a_lock_grows_with_repeated_failures(client, make_user, rf):
    """An escalating delay: 1 minute after the first five failures, then 2, 4 …"""
    from tournaments.services import logins

    make_user("ref9")
    lengths = []
    for _round in range(3):
        for _ in range(LIMIT):
            client.post(
                "/accounts/login/", {"username": "ref9", "password": "x"}, REMOTE_ADDR="10.7.7.7"
            )
        request = rf.post("/accounts/login/", {"username": "ref9"}, REMOTE_ADDR="10.7.7.7")
        lengths.append(logins.cool_off(request).total_seconds() / 60)
        from axes.models import AccessAttempt

        AccessAttempt.objects.all().delete()  # the lock ran out
    assert lengths == [1, 2, 4]


def test_rule_a_table_link_holder_is_throttled_like_anyone(event, client):
    """Issue 39: the table phone's login exemption is gone. As designed it let anyone holding
    a table link guess the event's officials' passwords without limit (its cookie was signed
    with one salt and read with another, so it never applied)."""
    from tournaments.models import TableKey

    key = TableKey.objects.create(event=event.event, table_number=1)
    phone = type(client)()
    page = phone.get(f"/table/{key.key}/")
    assert page.status_code == 200
    assert "paisai_table" not in page.cookies  # the table page marks no phone for logins
    username = event.referee.username
    answers = [
        phone.post("/accounts/login/", {"username": username, "password": "guess"})
        for _ in range(LIMIT)
    ]
    assert [a.status_code for a in answers] == [200] * (LIMIT - 1) + [429]
    right = phone.post("/accounts/login/", {"username": username, "password": f"pw-{username}"})
    assert right.status_code == 429 and not is_logged_in(phone)


def test_an_event_official_cannot_unlock_a_staff_account(client, make_user, make_event, grant):
    """Issue 31: give `admin` a committee role in your own event, guess, unlock, repeat."""
    from tournaments.services import logins

    event = make_event(teams=2)
    chief = grant(make_user("chief2"), event, "chief_referee")
    admin = grant(make_user("admin", is_staff=True, is_superuser=True), event, "committee")
    for _ in range(LIMIT):
        client.post("/accounts/login/", {"username": "admin", "password": "guess"})
    with pytest.raises(logins.UnlockRefused):
        logins.unlock(event, chief, admin.username)
    chief_client = type(client)()
    chief_client.force_login(chief)
    page = chief_client.post(
        f"/t/{event.slug}/manage/lockouts/",
        {"username": "admin"},
        HTTP_ACCEPT_LANGUAGE="en",
        follow=True,
    )
    assert "not one of this event" in page.content.decode()
    assert (
        client.post("/accounts/login/", {"username": "admin", "password": "pw-admin"}).status_code
        == 429
    )
    assert not AuditLog.objects.filter(action="login.unlock").exists()
    # staff is no pass either: a staff user without the event's role may not unlock
    staff = make_user("staff1", is_staff=True)
    assert not logins.may_unlock(staff, event)


def test_impossible_usernames_are_failed_logins(client):
    for name in ("u" * 300, "a\x00b"):
        response = client.post("/accounts/login/", {"username": name, "password": "x"})
        assert response.status_code in (200, 400)
        answer = client.get("/api/tournaments/", **basic(name, "x"))
        assert answer.status_code in (401, 403)


def test_the_chief_referee_lifts_a_lock(client, make_user, make_event, grant):
    event = make_event(teams=2)
    referee = grant(make_user("referee1"), event, "table_referee", tables=[1])
    chief = grant(make_user("chief1"), event, "chief_referee")
    stranger = make_user("stranger")
    for _ in range(LIMIT):
        client.post(
            "/accounts/login/",
            {"username": "referee1", "password": "wrong"},
            REMOTE_ADDR="10.2.2.2",
        )
    client.post("/accounts/login/", {"username": "stranger", "password": "w"})

    chief_client = type(client)()
    chief_client.force_login(chief)
    page = chief_client.get(f"/t/{event.slug}/manage/lockouts/", HTTP_ACCEPT_LANGUAGE="en")
    body = page.content.decode()
    assert page.status_code == 200 and "referee1" in body and "Locked" in body
    assert "stranger" not in body  # only this event's people
    # Someone else's lock is not the chief's to lift.
    chief_client.post(f"/t/{event.slug}/manage/lockouts/", {"username": "stranger"})
    response = chief_client.post(f"/t/{event.slug}/manage/lockouts/", {"username": "referee1"})
    assert response.status_code == 302
    response = client.post(
        "/accounts/login/",
        {"username": "referee1", "password": "pw-referee1"},
        REMOTE_ADDR="10.2.2.2",
    )
    assert response.status_code == 302 and int(client.session["_auth_user_id"]) == referee.pk
    entry = AuditLog.objects.get(action="login.unlock")
    assert entry.actor == chief and entry.data["username"] == "referee1"
    assert stranger.username not in AuditLog.objects.values_list("data", flat=True)[0].values()
    # A table referee may not open the page.
    referee_client = type(client)()
    referee_client.force_login(referee)
    assert referee_client.get(f"/t/{event.slug}/manage/lockouts/").status_code == 403


def test_api_clients_use_a_token_made_and_revoked_on_a_page(client, make_user, make_event, grant):
    """Instead of sending a password with every request (basic auth), a client sends a token
    made on the 'API token' page; a revoked token or a deactivated user's is refused."""
    event = make_event(teams=2)
    organiser = grant(make_user("org1"), event, "organiser")
    client.force_login(organiser)
    page = client.post("/accounts/api-token/", {"action": "issue"}).content.decode()
    key = re.search(r'<code id="new-token">(\w+)</code>', page).group(1)
    assert key not in client.get("/accounts/api-token/").content.decode()  # shown once
    assert AuditLog.objects.filter(action="api_token.issue", actor=organiser).exists()
    assert key not in str(AuditLog.objects.values_list("data", flat=True))

    api = type(client)()
    url = f"/api/tournaments/{event.slug}/teams/"
    body = {"name": "Token team", "unit": "", "players": ["A", "B"]}
    response = api.post(
        url, body, content_type="application/json", HTTP_AUTHORIZATION=f"Token {key}"
    )
    assert response.status_code == 201
    # A wrong token is refused without hashing anything.
    with mock.patch.object(ModelBackend, "authenticate", autospec=True) as backend:
        assert api.get(url, HTTP_AUTHORIZATION="Token nope").status_code in (401, 403)
    backend.assert_not_called()

    client.post("/accounts/api-token/", {"action": "revoke"})
    response = api.post(
        url,
        body | {"name": "Again"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {key}",
    )
    assert response.status_code in (401, 403)
    page = client.post("/accounts/api-token/", {"action": "issue"}).content.decode()
    key = re.search(r'<code id="new-token">(\w+)</code>', page).group(1)
    organiser.is_active = False
    organiser.save()
    response = api.get(url, HTTP_AUTHORIZATION=f"Token {key}")
    assert response.status_code in (401, 403)


def test_rule_lifting_a_lock_lifts_the_account_ceiling_too(client, make_user, make_event, grant):
    event = make_event(teams=2)
    grant(make_user("ref5"), event, "table_referee", tables=[1])
    chief = grant(make_user("chief5"), event, "chief_referee")
    for n in range(ACCOUNT_CEILING // LIMIT):
        for _ in range(LIMIT):
            login(type(client)(), "ref5", "guess", f"10.5.0.{n}")
    assert login(type(client)(), "ref5", "pw-ref5", "10.5.1.1").status_code == 429
    from tournaments.services import logins

    logins.unlock(event, chief, "ref5")
    assert login(type(client)(), "ref5", "pw-ref5", "10.5.1.1").status_code == 302
