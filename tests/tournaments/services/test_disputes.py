"""Captains dispute a version; it cannot count until the chief referee decides."""

from __future__ import annotations

import pytest

from tests.factories import actor, guandan_record
from tournaments.models import AuditLog, ResultDispute
from tournaments.services import disputes, result_confirm, result_entry, results, round_close
from tournaments.services.results import ResultError, ResultForbidden

pytestmark = pytest.mark.django_db


def test_a_dispute_blocks_counting_until_the_chief_decides_the_version_stands(event):
    result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    result_confirm.confirm(event.match, 1, actor(event.home_captain))
    dispute = disputes.raise_dispute(
        event.match, 1, actor(event.away_captain), "deal 3: N went out second, not S"
    )
    for confirmer in (event.away_captain, event.referee2):
        with pytest.raises(ResultError, match="disputed by"):
            result_confirm.confirm(event.match, 1, actor(confirmer))
    assert results.counting_version(event.match) is None
    with pytest.raises(round_close.RoundCloseError):
        round_close.finalise(event.round, event.chief)
    assert [d.pk for d in disputes.open_calls(event.event)] == [dispute.pk]
    with pytest.raises(ResultForbidden):
        disputes.decide(dispute, actor(event.referee2), "stands")
    decided = disputes.decide(dispute, actor(event.chief), "stands", "checked with both captains")
    assert decided.decision == "stands" and decided.decided_by_name == "chief"
    assert results.counting_version(event.match).number == 1
    assert disputes.open_calls(event.event) == []
    actions = set(AuditLog.objects.values_list("action", flat=True))
    assert {"result.dispute", "result.dispute_decided"} <= actions


def test_a_dismissed_dispute_lets_the_captains_confirm_again(event):
    result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    dispute = disputes.raise_dispute(event.match, 1, actor(event.home_captain), "wrong seats")
    disputes.decide(dispute, actor(event.chief), "dismissed", "captain agreed")
    result_confirm.confirm(event.match, 1, actor(event.home_captain))
    assert result_confirm.confirm(event.match, 1, actor(event.away_captain)).is_counting


def test_a_correction_settles_the_dispute(event):
    result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    disputes.raise_dispute(event.match, 1, actor(event.home_captain), "deal 6 was NS")
    fixed = guandan_record([*guandan_record()["deals"][:5], {"finish": ["N", "E", "S", "W"]}])
    version = result_entry.correct(event.match, fixed, actor(event.chief), 1, "deal 6 was NS")
    assert version.is_counting
    assert ResultDispute.objects.get().decision == "corrected"


def test_only_captains_of_the_match_dispute_with_a_reason(event):
    result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    with pytest.raises(ResultForbidden):
        disputes.raise_dispute(event.match, 1, actor(event.referee2), "no")
    with pytest.raises(ResultError, match="Say what is wrong"):
        disputes.raise_dispute(event.match, 1, actor(event.home_captain), "  ")
    disputes.raise_dispute(event.match, 1, actor(event.home_captain), "deal 2")
    with pytest.raises(ResultError, match="already disputed"):
        disputes.raise_dispute(event.match, 1, actor(event.home_captain), "deal 2 again")


def test_a_correction_that_changes_nothing_is_refused(event):
    result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    result_confirm.confirm(event.match, 1, actor(event.referee2))
    with pytest.raises(ResultError, match="changes nothing against version 1"):
        result_entry.correct(event.match, guandan_record(), actor(event.chief), 1, "typo?")
    assert results.latest_version(event.match).number == 1


EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _page(client, event):
    return client.get(f"/t/{event.event.slug}/results/match/{event.match.pk}/", **EN)


def _act(client, event, **data):
    return client.post(f"/t/{event.event.slug}/results/match/{event.match.pk}/action/", data, **EN)


def test_captains_read_the_deals_and_the_button_goes_once_their_team_confirmed(event, client):
    result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    client.force_login(event.home_captain)
    html = _page(client, event).content.decode()
    assert (
        'id="latest-deals"' in html
        and "East West South" in html
        and "East–West 5 · North–South 2" in html
    )
    assert 'id="confirm-latest"' in html and 'id="dispute"' in html
    _act(client, event, action="confirm", base_version=1)
    html = _page(client, event).content.decode()
    assert 'id="confirm-latest"' not in html


def test_a_dispute_from_the_page_is_a_call_on_the_chiefs_dashboard_then_decided(event, client):
    result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    client.force_login(event.away_captain)
    _act(client, event, action="dispute", base_version=1, reason="deal 4 was EW")
    assert ResultDispute.objects.get().reason == "deal 4 was EW"
    html = _page(client, event).content.decode()
    assert 'id="confirm-latest"' not in html and 'id="dispute"' not in html
    client.force_login(event.chief)
    board = client.get(f"/arbitration/t/{event.event.slug}/chief/", **EN).content.decode()
    assert "Table 1" in board and "deal 4 was EW" in board
    dispute = ResultDispute.objects.get()
    _act(client, event, action="decide", dispute=dispute.pk, decision="stands", reason="seen")
    assert results.counting_version(event.match).number == 1
    board = client.get(f"/arbitration/t/{event.event.slug}/chief/", **EN).content.decode()
    assert "deal 4 was EW" not in board


def test_dispute_and_decision_through_the_api(event, api_as):
    result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    base = f"/api/tournaments/{event.event.slug}/matches/{event.match.pk}/"
    made = api_as(event.home_captain).post(
        base + "dispute/", {"version": 1, "reason": "deal 2"}, format="json"
    )
    assert made.status_code == 201 and made.json()["team"] == event.teams[0].name
    blocked = api_as(event.away_captain).post(base + "confirm/", {"version": 1}, format="json")
    assert blocked.status_code == 400 and "disputed" in blocked.json()["error"]
    url = f"{base}disputes/{made.json()['id']}/decide/"
    assert (
        api_as(event.referee2).post(url, {"decision": "stands"}, format="json").status_code == 403
    )
    decided = api_as(event.chief).post(url, {"decision": "stands"}, format="json")
    assert decided.status_code == 200 and decided.json()["decision"] == "stands"
    assert results.counting_version(event.match).number == 1
