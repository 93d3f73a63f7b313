"""Results through the REST API: the SPEC 4.5 record in, the engine's answer out."""

from __future__ import annotations

import pytest

from tests.factories import guandan_record
from tournaments.models import AuditLog, ResultVersion, TableKey

pytestmark = pytest.mark.django_db


def url(event, what, match=None):
    match = match or event.match
    return f"/api/tournaments/{event.event.slug}/matches/{match.pk}/{what}/"


def test_referee_submits_and_gets_the_engines_answer(event, api_as):
    response = api_as(event.referee).post(
        url(event, "result"), {"record": guandan_record(), "base_version": 0}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["number"] == 1 and body["outcome"]["match_points"] == {"EW": 13, "NS": 7}
    assert body["created_by"] == "ref1" and body["is_counting"] is False


def test_impossible_record_answers_400_with_the_field(event, api_as):
    response = api_as(event.referee).post(
        url(event, "result"),
        {"record": guandan_record([{"finish": ["E", "X"]}]), "base_version": 0},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["field"].startswith("record.deals[0]")


def test_missing_base_version_names_the_field(event, api_as):
    response = api_as(event.referee).post(
        url(event, "result"), {"record": guandan_record()}, format="json"
    )
    assert response.status_code == 400 and response.json()["field"] == "base_version"


def test_stale_submission_answers_409_with_the_newer_version_and_own_record(event, api_as):
    client = api_as(event.referee)
    client.post(
        url(event, "result"), {"record": guandan_record(), "base_version": 0}, format="json"
    )
    mine = guandan_record([{"finish": ["N", "S"]}])
    response = client.post(url(event, "result"), {"record": mine, "base_version": 0}, format="json")
    assert response.status_code == 409
    body = response.json()
    assert body["latest"]["number"] == 1 and body["your_record"]["deals"] == mine["deals"]
    assert "your own earlier save" in body["error"]  # the same referee: nobody else changed it


def test_preview_answers_running_levels_without_storing(event, api_as):
    response = api_as(event.referee).post(
        url(event, "preview"), {"record": guandan_record([{"finish": ["E", "W"]}])}, format="json"
    )
    assert response.status_code == 200 and response.json()["levels"] == {"EW": "5", "NS": "2"}
    assert not ResultVersion.objects.exists()


def test_anonymous_cannot_submit_and_is_told_to_log_in(event, api):
    response = api.post(
        url(event, "result"), {"record": guandan_record(), "base_version": 0}, format="json"
    )
    # 401, not 403: an expired login is told to log in again (the table page keeps the deals)
    assert response.status_code == 401 and response.json()["field"] == "login"
    assert "log in again" in response.json()["error"]
    assert not ResultVersion.objects.exists()


def test_table_key_header_writes_its_table(event, api):
    key = TableKey.objects.create(event=event.event, table_number=1)
    body = {"record": guandan_record(), "base_version": 0}
    ok = api.post(url(event, "result"), body, format="json", HTTP_X_TABLE_KEY=key.key)
    assert ok.status_code == 201 and ok.json()["via"] == "table-key"
    other = api.post(
        url(event, "result", event.match2), body, format="json", HTTP_X_TABLE_KEY=key.key
    )
    assert other.status_code == 403
    unknown = api.post(url(event, "result"), body, format="json", HTTP_X_TABLE_KEY="nope")
    assert unknown.status_code == 401 and "unknown" in unknown.json()["error"]


def test_table_link_shows_the_current_match_with_seats(event, api):
    key = TableKey.objects.create(event=event.event, table_number=1)
    body = api.get(f"/api/table/{key.key}/").json()
    assert body["id"] == event.match.pk and [s["seat"] for s in body["seats"]] == list("ESWN")
    assert body["seats"][0]["team"] == event.teams[0].name
    assert api.get("/api/table/unknown/").status_code == 404


def test_captains_confirm_through_the_api_then_history_shows_it(event, api_as):
    api_as(event.referee).post(
        url(event, "result"), {"record": guandan_record(), "base_version": 0}, format="json"
    )
    for captain in (event.home_captain, event.away_captain):
        response = api_as(captain).post(url(event, "confirm"), {"version": 1}, format="json")
        assert response.status_code == 200
    assert response.json()["is_counting"] is True
    detail = api_as(event.chief).get(url(event, "result")).json()
    assert detail["counting"]["number"] == 1
    assert len(detail["versions"][0]["confirmations"]) == 2


def test_chief_void_correct_restore_forfeit(event, api_as):
    chief = api_as(event.chief)
    post = lambda what, body: chief.post(url(event, what), body, format="json")  # noqa: E731
    assert post("forfeit", {"absent": "NS", "base_version": 0}).status_code == 201
    assert (
        post(
            "correct", {"record": guandan_record(), "base_version": 1, "reason": "they arrived"}
        ).status_code
        == 201
    )
    assert post("void", {"base_version": 2, "reason": "wrong table"}).status_code == 201
    restored = post("restore", {"version": 2, "reason": "table was right"})
    assert restored.status_code == 201 and restored.json()["number"] == 4
    assert restored.json()["is_counting"]
    assert post("void", {"base_version": 4}).json()["field"] == "reason"


def test_finalise_refused_names_tables_then_reopen(event, api_as):
    base = f"/api/tournaments/{event.event.slug}/rounds/1/"
    refused = api_as(event.organiser).post(base + "finalise/")
    # the round's state refuses it: 409 (issue 31: 400 is for a request wrong in itself)
    assert refused.status_code == 409 and refused.json()["tables"] == [1, 2]
    for match in (event.match, event.match2):
        api_as(event.chief).post(
            url(event, "result", match),
            {"record": guandan_record(), "base_version": 0, "confirm": True},
            format="json",
        )
    assert api_as(event.organiser).post(base + "finalise/").json()["status"] == "finalised"
    assert api_as(event.organiser).post(base + "reopen/", {"reason": "x"}).status_code == 403
    assert api_as(event.chief).post(base + "reopen/", {"reason": "appeal"}).status_code == 200


def test_table_keys_issue_and_revoke_are_logged(event, api_as):
    keys_url = f"/api/tournaments/{event.event.slug}/table-keys/"
    assert api_as(event.referee).get(keys_url).status_code == 403
    client = api_as(event.organiser)
    first = client.post(keys_url, {"table_number": 1}, format="json").json()
    second = client.post(keys_url, {"table_number": 1}, format="json").json()
    assert first["key"] != second["key"]
    assert [k["id"] for k in client.get(keys_url).json()] == [second["id"]]
    client.post(f"{keys_url}{second['id']}/revoke/")
    assert client.get(keys_url).json() == []
    assert AuditLog.objects.filter(action="table_key.revoke").count() == 2


def test_tractor_record_breaking_the_300_point_rule_answers_400_with_the_reason(api_as):
    from tests import factories

    event = factories.event(teams=2, game="tractor")
    home, away = event.teams.order_by("name")
    match = factories.round_(event, 1, [(home, away)], status="in_play").matches.get()
    referee = factories.grant(factories.user("tractor_ref"), event, "table_referee", tables=[1])
    record = {
        "game": "tractor",
        "preset": "tractor",
        "deals": [
            {"dealer": "EW", "defender_points": 290, "bottom_points": 40, "bottom_multiplier": 2}
        ],
    }
    response = api_as(referee).post(
        f"/api/tournaments/{event.slug}/matches/{match.pk}/result/",
        {"record": record, "base_version": 0},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "record.deals[0].bottom_points" and "300 points" in body["error"]
    assert not ResultVersion.objects.filter(match=match).exists()


def test_the_result_answer_names_people_by_display_name_for_officials_only(event, api_as):
    from tests.factories import actor
    from tournaments.services import result_confirm, result_entry

    event.referee.first_name = "王明"
    event.referee.save(update_fields=["first_name"])  # the captain keeps no name: the username
    result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    result_confirm.confirm(event.match, 1, actor(event.home_captain))
    officials = api_as(event.chief).get(url(event, "result")).json()
    assert officials["versions"][0]["created_by"] == "ref1"  # the API keeps the username
    assert officials["names"] == {"ref1": "王明", "cap_home": "cap_home"}
    captain = api_as(event.away_captain).get(url(event, "result")).json()
    assert captain["names"] == {} and "ref1" not in str(captain)


def test_changed_meanwhile_names_who_saved_the_newer_version(event, api_as):
    from tests.factories import actor
    from tournaments.services import result_entry

    event.referee2.first_name = "李华"
    event.referee2.save(update_fields=["first_name"])
    result_entry.submit(event.match, guandan_record(), actor(event.referee2), 0)
    response = api_as(event.referee).post(
        url(event, "result"), {"record": guandan_record(), "base_version": 0}, format="json"
    )
    assert response.status_code == 409
    assert response.json()["names"] == {"ref1b": "李华"}
    assert "李华" in response.json()["error"]
