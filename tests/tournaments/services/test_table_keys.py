"""A table key belongs to its table's referee: entries through it are theirs, and they never
confirm them, whatever the path."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.factories import actor, guandan_record
from tournaments.models import AuditLog, ResultVersion, TableAssignment
from tournaments.services import result_confirm, result_entry, table_keys
from tournaments.services.results import ResultError, ResultForbidden

pytestmark = pytest.mark.django_db


def test_a_key_issued_for_a_table_with_one_referee_belongs_to_that_referee(event):
    key = table_keys.issue(event.event, 2, event.chief)
    assert key.referee == event.other_referee
    entry = AuditLog.objects.filter(action="table_key.issue").last()
    assert entry.data["referee"] == "ref2"


def test_a_named_referee_must_referee_that_table(event):
    key = table_keys.issue(event.event, 1, event.chief, referee=event.referee)
    assert key.referee == event.referee
    with pytest.raises(ResultError, match="not a table referee of table 1"):
        table_keys.issue(event.event, 1, event.chief, referee=event.other_referee)


def test_the_keys_referee_cannot_confirm_the_keys_entry_by_any_path(event, grant):
    key = table_keys.issue(event.event, 1, event.chief, referee=event.referee)
    version = result_entry.submit(event.match, guandan_record(), actor(key=key), 0)
    assert version.created_by is None and version.referee == event.referee
    # as a second referee of the table
    with pytest.raises(ResultForbidden, match="entered this version"):
        result_confirm.confirm(event.match, 1, actor(event.referee))
    # nor as a captain of one of the teams
    grant(event.referee, event.event, "captain", team=event.teams[0])
    event.referee.__dict__.pop("_paisai_roles", None)
    with pytest.raises(ResultForbidden, match="entered this version"):
        result_confirm.confirm(event.match, 1, actor(event.referee))
    assert not ResultVersion.objects.get(pk=version.pk).confirmations.exists()
    # another referee of the table may
    assert result_confirm.confirm(event.match, 1, actor(event.referee2)).is_counting


def test_the_keys_referee_cannot_confirm_through_the_api(event, api_as):
    key = table_keys.issue(event.event, 1, event.chief, referee=event.referee)
    result_entry.submit(event.match, guandan_record(), actor(key=key), 0)
    url = f"/api/tournaments/{event.event.slug}/matches/{event.match.pk}/confirm/"
    response = api_as(event.referee).post(url, {"version": 1}, format="json")
    assert response.status_code == 403
    assert not ResultVersion.objects.get(match=event.match).is_counting


def test_a_key_with_no_named_referee_is_confirmed_by_captains_or_the_chief_not_a_referee(event):
    assert TableAssignment.objects.filter(table_number=1).count() == 2  # no default owner
    key = table_keys.issue(event.event, 1, event.chief)
    assert key.referee is None
    result_entry.submit(event.match, guandan_record(), actor(key=key), 0)
    with pytest.raises(ResultForbidden, match="belongs to no named referee"):
        result_confirm.confirm(event.match, 1, actor(event.referee2))
    result_confirm.confirm(event.match, 1, actor(event.home_captain))
    assert result_confirm.confirm(event.match, 1, actor(event.away_captain)).is_counting


def test_whoever_entered_a_version_does_not_confirm_it_even_as_chief(event):
    result_entry.submit(event.match, guandan_record(), actor(event.chief), 0)
    with pytest.raises(ResultForbidden, match="entered this version"):
        result_confirm.confirm(event.match, 1, actor(event.chief))


def test_captains_sign_on_the_tables_phone_but_the_keys_referee_cannot(event, api):
    key = table_keys.issue(event.event, 1, event.chief, referee=event.referee)
    result_entry.submit(event.match, guandan_record(), actor(key=key), 0)
    url = f"/api/tournaments/{event.event.slug}/matches/{event.match.pk}/captain-sign/"

    def sign(user, password=None):
        body = {
            "version": 1,
            "username": user.username,
            "password": password or "pw-" + user.username,
        }
        return api.post(url, body, format="json", HTTP_X_TABLE_KEY=key.key)

    assert sign(event.referee).status_code == 403  # not a captain: no path to confirm
    assert sign(event.home_captain, "wrong").status_code == 403
    first = sign(event.home_captain)
    assert first.status_code == 200 and first.json()["is_counting"] is False
    assert sign(event.away_captain).json()["is_counting"] is True
    confirmations = ResultVersion.objects.get(match=event.match).confirmations.all()
    assert {c.user.username for c in confirmations} == {"cap_home", "cap_away"}
    # the phone of another table cannot collect signatures for this match
    other = table_keys.issue(event.event, 2, event.chief)
    response = api.post(
        url,
        {"version": 1, "username": "cap_home", "password": "pw-cap_home"},
        format="json",
        HTTP_X_TABLE_KEY=other.key,
    )
    assert response.status_code == 403


def test_a_captains_signature_answers_in_words_what_happened_and_what_comes_next(
    event, api, settings
):
    """Wrong password: not signed, the tries left; too many: paused until a time, with the
    other ways to confirm; signed: for which team, and whose signature is still awaited."""
    settings.PAISAI_CAPTAIN_SIGN_LIMIT = 2
    key = table_keys.issue(event.event, 1, event.chief, referee=event.referee)
    result_entry.submit(event.match, guandan_record(), actor(key=key), 0)
    url = f"/api/tournaments/{event.event.slug}/matches/{event.match.pk}/captain-sign/"

    def sign(user, password=None):
        body = {
            "version": 1,
            "username": user.username,
            "password": password or "pw-" + user.username,
        }
        return api.post(
            url, body, format="json", HTTP_X_TABLE_KEY=key.key, HTTP_ACCEPT_LANGUAGE="zh-hans"
        )

    wrong = sign(event.home_captain, "wrong")
    assert wrong.status_code == 403 and wrong.json()["code"] == "captain_sign_refused"
    said = wrong.json()["error"]
    assert "未签字" in said and "重新输入" in said and "再错 1 次" in said, said
    locked = sign(event.home_captain, "wrong")
    assert locked.status_code == 403 and locked.json()["code"] == "captain_sign_locked"
    said = locked.json()["error"]
    assert "暂停 cap_home 签字" in said and "我的比赛" in said and "裁判长" in said, said
    # the right password while paused: still paused (the pause is not a guess oracle)
    assert sign(event.home_captain).json()["code"] == "captain_sign_locked"
    assert not ResultVersion.objects.get(match=event.match).confirmations.exists()
    first = sign(event.away_captain)  # another username: not paused
    assert first.status_code == 200
    assert first.json()["signed_for"] == event.teams[1].name
    assert first.json()["waiting_for"] == event.teams[0].name
    assert first.json()["is_counting"] is False
    cache.clear()  # the quarter of an hour has passed
    second = sign(event.home_captain)
    assert second.json()["is_counting"] is True and second.json()["waiting_for"] is None
    assert second.json()["signed_for"] == event.teams[0].name
