"""Issue 35 through the API: "mine over the newer version" answers 409 merge_conflict with
the deals both sides changed; the table page's requests are recorded as the table page."""

from __future__ import annotations

import pytest

from tests.factories import actor, guandan_record
from tests.tournaments.services.test_results_merge import EW_UP1, EW_UP3, NINE, NS_UP1, changed
from tournaments.models import ResultVersion
from tournaments.services import result_entry

pytestmark = pytest.mark.django_db


def url(event):
    return f"/api/tournaments/{event.event.slug}/matches/{event.match.pk}/result/"


@pytest.fixture
def corrected(event):
    result_entry.submit(event.match, guandan_record(NINE), actor(event.referee), 0)
    result_entry.correct(
        event.match, guandan_record(changed(NINE, 5, EW_UP3)), actor(event.chief), 1, "第 5 副"
    )
    return event


def test_a_merge_with_a_deal_both_changed_answers_merge_conflict_naming_it(corrected, api_as):
    event = corrected
    body = {"record": guandan_record(changed(NINE, 5, NS_UP1)), "base_version": 2, "merge_base": 1}
    response = api_as(event.referee).post(url(event), body, format="json")
    assert response.status_code == 409
    answer = response.json()
    assert answer["code"] == "merge_conflict" and answer["conflicts"] == [5]
    assert answer["field"] == "overrides" and answer["latest"]["number"] == 2
    assert answer["merge"]["conflicts"] == [5]
    assert ResultVersion.objects.filter(match=event.match).count() == 2


def test_the_first_409_says_what_merges_and_the_merge_keeps_both(corrected, api_as):
    event = corrected
    client = api_as(event.referee)
    mine = guandan_record(changed(NINE, 3, NS_UP1))
    first = client.post(url(event), {"record": mine, "base_version": 1}, format="json")
    assert first.status_code == 409 and first.json()["code"] == "changed_meanwhile"
    assert first.json()["merge"]["theirs"] == [5] and first.json()["merge"]["mine"] == [3]
    again = client.post(
        url(event),
        {"record": mine, "base_version": 2, "merge_base": 1},
        format="json",
        HTTP_X_PAISAI_PAGE="table",
    )
    assert again.status_code == 201, again.json()
    newest = ResultVersion.objects.get(match=event.match, number=3)
    assert newest.record["deals"][2] == NS_UP1 and newest.record["deals"][4] == EW_UP3
    assert newest.via == "table-page"  # the table page, not "app"


def test_an_override_that_is_no_choice_is_refused(corrected, api_as):
    body = {
        "record": guandan_record(changed(NINE, 5, NS_UP1)),
        "base_version": 2,
        "merge_base": 1,
        "overrides": {"5": "both"},
    }
    response = api_as(corrected.referee).post(url(corrected), body, format="json")
    assert response.status_code == 400 and response.json()["field"] == "overrides.5"


def forfeit_url(event):
    return f"/api/tournaments/{event.event.slug}/matches/{event.match.pk}/forfeit/"


def test_a_forfeit_resubmitted_after_a_409_never_replaces_the_chiefs_correction(corrected, api_as):
    event = corrected
    client = api_as(event.referee)
    first = client.post(forfeit_url(event), {"absent": "NS", "base_version": 1}, format="json")
    assert first.status_code == 409 and first.json()["merge"]["fields"] == ["record"]
    again = {"absent": "NS", "base_version": 2, "merge_base": 1}
    conflict = client.post(forfeit_url(event), again, format="json")
    assert conflict.status_code == 409 and conflict.json()["code"] == "merge_conflict"
    over = again | {"overrides": {"record": "mine"}, "note": "南北未到"}
    refused = client.post(forfeit_url(event), over, format="json")
    assert refused.status_code == 403 and refused.json()["field"] == "overrides"
    assert ResultVersion.objects.filter(match=event.match).count() == 2
    assert ResultVersion.objects.get(match=event.match, is_counting=True).number == 2
    by_chief = api_as(event.chief).post(forfeit_url(event), over, format="json")
    assert by_chief.status_code == 201, by_chief.json()
    newest = ResultVersion.objects.get(match=event.match, number=3)
    assert newest.record["forfeit"] == "NS" and newest.is_counting


def test_the_chiefs_correction_takes_merge_base_through_the_api(corrected, api_as):
    event = corrected
    result_entry.submit(
        event.match,
        guandan_record(changed(changed(NINE, 5, EW_UP3), 3, NS_UP1)),
        actor(event.referee),
        2,
    )
    url_correct = f"/api/tournaments/{event.event.slug}/matches/{event.match.pk}/correct/"
    mine = guandan_record(changed(changed(NINE, 5, EW_UP3), 8, EW_UP1))
    client = api_as(event.chief)
    body = {"record": mine, "base_version": 2, "reason": "第 8 副"}
    first = client.post(url_correct, body, format="json")
    assert first.status_code == 409 and first.json()["merge"]["mine"] == [8]
    merged = client.post(url_correct, body | {"base_version": 3, "merge_base": 2}, format="json")
    assert merged.status_code == 201, merged.json()
    deals = ResultVersion.objects.get(match=event.match, number=4).record["deals"]
    assert deals[2] == NS_UP1 and deals[7] == EW_UP1 and deals[4] == EW_UP3
