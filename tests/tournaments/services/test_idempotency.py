"""Idempotent submissions: the same Idempotency-Key answers the version first stored."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connection

from tests.factories import actor, guandan_record
from tournaments.models import AuditLog, ResultVersion, TableKey
from tournaments.services import result_entry

pytestmark = pytest.mark.django_db


def url(event, what="result", match=None):
    match = match or event.match
    return f"/api/tournaments/{event.event.slug}/matches/{match.pk}/{what}/"


def post(client, event, body, key, what="result", **headers):
    return client.post(
        url(event, what), body, format="json", HTTP_IDEMPOTENCY_KEY=str(key), **headers
    )


def test_same_key_twice_stores_one_version_and_answers_it_again(event, api_as):
    client = api_as(event.referee)
    key = uuid.uuid4()
    body = {"record": guandan_record(), "base_version": 0, "note": "table 1"}
    first = post(client, event, body, key)
    again = post(client, event, body, key)
    assert first.status_code == 201 and again.status_code == 200, again.json()
    assert again.json() == first.json()
    assert ResultVersion.objects.filter(match=event.match).count() == 1
    version = ResultVersion.objects.get(match=event.match)
    assert version.idempotency_key == key
    assert AuditLog.objects.filter(action="result.conflict").count() == 0


def test_a_repeat_after_a_newer_version_still_answers_the_first_one_not_a_conflict(event, api_as):
    client = api_as(event.referee)
    key = uuid.uuid4()
    body = {"record": guandan_record(), "base_version": 0}
    post(client, event, body, key)
    result_entry.submit(
        event.match, guandan_record([{"finish": ["N", "S"]}]), actor(event.referee2), 1
    )
    again = post(client, event, body, key)
    assert again.status_code == 200 and again.json()["number"] == 1
    assert ResultVersion.objects.filter(match=event.match).count() == 2


def test_same_key_with_another_body_is_422_naming_the_key(event, api_as):
    client = api_as(event.referee)
    key = uuid.uuid4()
    post(client, event, {"record": guandan_record(), "base_version": 0}, key)
    other_body = {"record": guandan_record([{"finish": ["N", "S"]}]), "base_version": 0}
    other = post(client, event, other_body, key)
    assert other.status_code == 422
    assert other.json()["field"] == "Idempotency-Key" and str(key) in other.json()["error"]
    assert ResultVersion.objects.filter(match=event.match).count() == 1


def test_a_key_is_scoped_to_its_match(event, api_as):
    key = uuid.uuid4()
    body = {"record": guandan_record(), "base_version": 0}
    assert post(api_as(event.referee), event, body, key).status_code == 201
    other = api_as(event.other_referee).post(
        url(event, match=event.match2), body, format="json", HTTP_IDEMPOTENCY_KEY=str(key)
    )
    assert other.status_code == 201
    assert ResultVersion.objects.filter(idempotency_key=key).count() == 2


def test_a_malformed_key_is_400_naming_the_header(event, api_as):
    response = post(
        api_as(event.referee), event, {"record": guandan_record(), "base_version": 0}, "not-a-uuid"
    )
    assert response.status_code == 400 and response.json()["field"] == "Idempotency-Key"
    assert not ResultVersion.objects.exists()


def test_table_key_repeat_answers_the_stored_version(event, api):
    table_key = TableKey.objects.create(event=event.event, table_number=1)
    key = uuid.uuid4()
    body = {"record": guandan_record(), "base_version": 0}
    first = post(api, event, body, key, HTTP_X_TABLE_KEY=table_key.key)
    again = post(api, event, body, key, HTTP_X_TABLE_KEY=table_key.key)
    assert (first.status_code, again.status_code) == (201, 200)
    assert ResultVersion.objects.filter(match=event.match).count() == 1


def test_forfeit_and_correction_repeat_idempotently(event, api_as):
    referee = api_as(event.referee)
    key = uuid.uuid4()
    body = {"absent": "NS", "base_version": 0}
    assert post(referee, event, body, key, "forfeit").status_code == 201
    assert post(referee, event, body, key, "forfeit").status_code == 200
    chief = api_as(event.chief)
    fix = {"record": guandan_record(), "base_version": 1, "reason": "wrong table"}
    fix_key = uuid.uuid4()
    assert post(chief, event, fix, fix_key, "correct").status_code == 201
    assert post(chief, event, fix, fix_key, "correct").status_code == 200
    assert ResultVersion.objects.filter(match=event.match).count() == 2


def test_a_repeat_after_the_round_is_finalised_still_answers_the_stored_version(event, api_as):
    key = uuid.uuid4()
    body = {"record": guandan_record(), "base_version": 0}
    post(api_as(event.referee), event, body, key)
    event.round.status = "finalised"
    event.round.save()
    again = post(api_as(event.referee), event, body, key)
    assert again.status_code == 200 and again.json()["number"] == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_requests_with_one_key_store_one_version(event):
    from rest_framework.test import APIClient

    threads_n = 20
    key = str(uuid.uuid4())
    body = {"record": guandan_record(), "base_version": 0}
    barrier = threading.Barrier(threads_n)
    answers: list = [None] * threads_n

    def run(i):
        try:
            client = APIClient()
            client.force_authenticate(event.referee)
            barrier.wait()
            response = client.post(url(event), body, format="json", HTTP_IDEMPOTENCY_KEY=key)
            answers[i] = (response.status_code, response.json().get("number"))
        except Exception as exc:  # noqa: BLE001 — asserted on below
            answers[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(threads_n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert ResultVersion.objects.filter(match=event.match).count() == 1
    statuses = sorted(a[0] for a in answers)
    assert statuses == [200] * (threads_n - 1) + [201], answers
    assert {a[1] for a in answers} == {1}
    assert not AuditLog.objects.filter(action="result.conflict").exists()
