"""Seat marks (已入座) through the API, as the table page sends them (table_seating.js)."""

from __future__ import annotations

import uuid

import pytest

from tournaments.models import AuditLog, Round, Seating, TableKey

pytestmark = pytest.mark.django_db


def url(event, match=None):
    match = match or event.match
    return f"/api/tournaments/{event.event.slug}/matches/{match.pk}/seated/"


def seated(event) -> set[int]:
    return set(Seating.objects.filter(round=event.round).values_list("team_id", flat=True))


def test_referee_marks_one_team_then_both_and_a_repeat_changes_nothing(event, api_as):
    client = api_as(event.referee)
    key = str(uuid.uuid4())
    one = client.post(url(event), {"EW": True}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert one.status_code == 200 and one.json() == {"EW": True, "NS": False}
    again = client.post(url(event), {"EW": True}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert again.status_code == 200 and again.json() == {"EW": True, "NS": False}
    both = client.post(url(event), {"EW": True, "NS": True}, format="json")
    assert both.json() == {"EW": True, "NS": True}
    assert seated(event) == {event.match.home_id, event.match.away_id}
    assert AuditLog.objects.filter(action="team.seated").count() == 2  # one per team, once
    assert client.get(url(event)).json() == {"EW": True, "NS": True}


def test_a_wrong_tap_is_undone_and_logged(event, api_as):
    client = api_as(event.referee)
    client.post(url(event), {"EW": True, "NS": True}, format="json")
    assert client.post(url(event), {"NS": False}, format="json").json() == {"EW": True, "NS": False}
    assert seated(event) == {event.match.home_id}
    assert AuditLog.objects.filter(action="team.unseated").count() == 1


def test_the_table_device_key_marks_its_own_table_only(event, api):
    key = TableKey.objects.create(event=event.event, table_number=1)
    ok = api.post(url(event), {"NS": True}, format="json", HTTP_X_TABLE_KEY=key.key)
    assert ok.status_code == 200 and ok.json()["NS"] is True
    other = api.post(
        url(event, event.match2), {"NS": True}, format="json", HTTP_X_TABLE_KEY=key.key
    )
    assert other.status_code == 403 and other.json()["error"]
    assert seated(event) == {event.match.away_id}


def test_refusals_answer_in_words_and_mark_nothing(event, api_as, api):
    assert api.post(url(event), {"EW": True}, format="json").status_code == 401
    refused = api_as(event.other_referee).post(url(event), {"EW": True}, format="json")
    assert refused.status_code == 403 and "table 1" in refused.json()["error"]
    empty = api_as(event.referee).post(url(event), {}, format="json")
    assert empty.status_code == 400
    Round.objects.filter(pk=event.round.pk).update(status=Round.Status.FINALISED)
    closed = api_as(event.referee).post(url(event), {"EW": True}, format="json")
    assert closed.status_code == 400 and "finalised" in closed.json()["error"]
    assert seated(event) == set()


def test_a_bye_has_no_seat_marks(event, api_as):
    response = api_as(event.chief).post(url(event, event.bye), {"EW": True}, format="json")
    assert response.status_code == 400 and seated(event) == set()
