"""Issue 39: an organiser gives a role to an account outside the event only with its consent
(an invitation the account accepts), the role API never says whether a username exists, and
no organiser lifts the lock of an account added to the event after it was locked."""

from __future__ import annotations

import pytest

from tournaments.models import EventRole
from tournaments.services import logins

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def roles_url(event) -> str:
    return f"/api/tournaments/{event.event.slug}/roles/"


def test_rule_a_role_for_an_outside_account_waits_for_its_consent(event, api_as, make_user, client):
    outsider = make_user("outsider")
    api = api_as(event.organiser)
    answer = api.post(roles_url(event), {"username": "outsider", "role": "table_referee"})
    assert answer.status_code == 202, answer.content
    assert not EventRole.objects.filter(user=outsider, event=event.event).exists()
    # the account sees the invitation, and accepts it
    client.force_login(outsider)
    home = client.get("/", **EN).content.decode()
    assert 'id="role-invitations"' in home and "/accounts/invitations/" in home
    page = client.get("/accounts/invitations/", **EN)
    text = page.content.decode()
    assert page.status_code == 200 and event.event.name in text and "Table referee" in text
    [invitation] = page.context["invitations"]
    assert (
        client.post(f"/accounts/invitations/{invitation.pk}/", {"answer": "accept"}).status_code
        == 302
    )
    assert EventRole.objects.filter(user=outsider, event=event.event, role="table_referee").exists()
    # now a person of the event, the next role is given at once
    assert (
        api.post(roles_url(event), {"username": "outsider", "role": "committee"}).status_code == 201
    )
    # another account declines: no role
    second = make_user("second")
    api.post(roles_url(event), {"username": "second", "role": "committee"})
    client.force_login(second)
    [invitation] = client.get("/accounts/invitations/").context["invitations"]
    client.post(f"/accounts/invitations/{invitation.pk}/", {"answer": "decline"})
    assert not EventRole.objects.filter(user=second).exists()
    # nobody answers for somebody else (the organiser cannot accept an invitation)
    third = make_user("third")
    api.post(roles_url(event), {"username": "third", "role": "committee"})
    other = third.role_invitations.filter(answered_at__isnull=True).get()
    organiser = type(client)()
    organiser.force_login(event.organiser)
    assert (
        organiser.post(f"/accounts/invitations/{other.pk}/", {"answer": "accept"}).status_code
        == 404
    )
    assert not EventRole.objects.filter(user=third).exists()


def test_rule_the_role_api_never_says_whether_a_username_exists(event, api_as, make_user):
    make_user("realperson")
    api = api_as(event.organiser)
    real = api.post(roles_url(event), {"username": "realperson", "role": "committee"})
    made_up = api.post(roles_url(event), {"username": "nosuchperson", "role": "committee"})
    assert real.status_code == made_up.status_code == 202
    assert real.json() == made_up.json()
    # someone already in the event is given the role at once (the organiser sees them listed)
    inside = api.post(roles_url(event), {"username": event.referee.username, "role": "committee"})
    assert inside.status_code == 201 and inside.json()["username"] == event.referee.username


def test_rule_no_lock_lifted_for_an_account_added_after_it_was_locked(
    event, client, make_user, grant
):
    late = make_user("lateuser")
    for _ in range(5):
        client.post("/accounts/login/", {"username": "lateuser", "password": "guess"})
    locked = client.post("/accounts/login/", {"username": "lateuser", "password": "pw-lateuser"})
    assert locked.status_code == 429
    from tournaments.services import roles

    roles.grant(event.event, event.organiser, late, "committee")  # (e.g. it accepted later)
    with pytest.raises(logins.UnlockRefused) as refused:
        logins.unlock(event.event, event.organiser, "lateuser")
    from django.utils import translation

    with translation.override("en"):
        assert "added to this event after" in str(refused.value.message)
    assert (
        client.post(
            "/accounts/login/", {"username": "lateuser", "password": "pw-lateuser"}
        ).status_code
        == 429
    )
    # a person of the event before the lock: lifted as before
    for _ in range(5):
        client.post("/accounts/login/", {"username": event.referee.username, "password": "x"})
    assert logins.unlock(event.event, event.organiser, event.referee.username) >= 1
