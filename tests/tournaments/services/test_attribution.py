"""Finding 8 of issue 13: public answers show no address or username (a role instead);
X-Forwarded-For is believed only behind a configured trusted proxy."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from tests.factories import actor, build_event, guandan_record
from tournaments.services import result_confirm, result_entry
from tournaments.services.audit import client_address

pytestmark = pytest.mark.django_db

ADDRESS = "10.77.0.5"


@pytest.fixture
def scored(make_event, make_user, grant):
    event = build_event(make_event, make_user, grant)
    version = result_entry.submit(
        event.match, guandan_record(), actor(event.referee, source=ADDRESS), 0
    )
    result_confirm.confirm(event.match, version.number, actor(event.home_captain, source=ADDRESS))
    return event


def test_public_result_api_shows_a_role_not_the_username_or_address(api, scored):
    # the public sees a counting version only (issue 31): both captains have confirmed
    result_confirm.confirm(scored.match, 1, actor(scored.away_captain, source=ADDRESS))
    url = f"/api/tournaments/{scored.event.slug}/matches/{scored.match.pk}/result/"
    body = api.get(url).content.decode()
    assert ADDRESS not in body and "ref1" not in body and "cap_home" not in body
    latest = api.get(url).json()["latest"]
    assert latest["source"] == "" and latest["created_by"].startswith("Table referee")
    confirmation = api.get(url).json()["versions"][0]["confirmations"][0]
    assert confirmation["user"].startswith("Team captain") and confirmation["source"] == ""
    # A captain is not an official either.
    api.force_authenticate(scored.away_captain)
    assert ADDRESS not in api.get(url).content.decode()
    # The event's officials see who and from where.
    api.force_authenticate(scored.chief)
    latest = api.get(url).json()["latest"]
    assert latest["source"] == ADDRESS and latest["created_by"] == "ref1"


def test_public_match_page_shows_a_role_not_the_username_or_address(client, scored):
    url = f"/t/{scored.event.slug}/results/match/{scored.match.pk}/"
    body = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert ADDRESS not in body and "ref1" not in body and "cap_home" not in body
    assert "Table referee" in body
    client.force_login(scored.chief)
    body = client.get(url).content.decode()
    assert ADDRESS in body and "ref1" in body


def test_forwarded_for_is_ignored_without_a_trusted_proxy(settings):
    settings.TRUSTED_PROXIES = []
    request = RequestFactory().get("/", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert client_address(request) == "203.0.113.9"


def test_forwarded_for_is_read_behind_a_trusted_proxy(settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.2"]
    # The client forged the left-most hop; the proxies appended the real one on the right.
    request = RequestFactory().get(
        "/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.7, 10.0.0.2"
    )
    assert client_address(request) == "198.51.100.7"
    request = RequestFactory().get(
        "/", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="198.51.100.7"
    )
    assert client_address(request) == "203.0.113.9"  # not from the proxy: header ignored


def test_audit_source_cannot_be_forged_by_a_header(api, scored):
    from tournaments.models import AuditLog

    api.force_authenticate(scored.chief)
    url = f"/api/tournaments/{scored.event.slug}/matches/{scored.match.pk}/void/"
    response = api.post(
        url,
        {"base_version": 1, "reason": "test"},
        format="json",
        HTTP_X_FORWARDED_FOR="6.6.6.6",
        REMOTE_ADDR="192.0.2.10",
    )
    assert response.status_code == 201
    entry = AuditLog.objects.filter(action="result.void").latest("id")
    assert entry.source == "192.0.2.10"
