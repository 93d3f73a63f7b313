"""REST API of rounds and standings: organiser-only writes, errors with the field, public reads."""

from __future__ import annotations

import pytest

from tests.tournaments.round_helpers import play_round
from tournaments.models import AuditLog, Match, Role, Round
from tournaments.services import rounds


@pytest.fixture
def event(make_event):
    return make_event(teams=6, units=3)


@pytest.fixture
def organiser(make_user, grant, event):
    return grant(make_user(), event, Role.ORGANISER)


def api_url(event, path=""):
    return f"/api/tournaments/{event.slug}/{path}"


def test_organiser_drafts_round_one_with_a_seed(api_as, event, organiser):
    response = api_as(organiser).post(api_url(event, "rounds/draft/"), {"seed": 77}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["number"] == 1 and body["draw_seed"] == 77 and body["status"] == "draft"
    assert len(body["pairings"]) == 3
    table = body["pairings"][0]
    assert set(table) >= {"table", "home", "home_name", "away", "away_name", "bye", "flags"}
    assert [p["table"] for p in body["pairings"]] == [1, 2, 3]


def test_draft_refused_until_previous_round_finalised_names_no_field(api_as, event, organiser):
    client = api_as(organiser)
    client.post(api_url(event, "rounds/draft/"), {}, format="json")
    client.post(api_url(event, "rounds/1/publish/"))
    response = client.post(api_url(event, "rounds/draft/"), {}, format="json")
    assert response.status_code == 409  # the event's state refuses it (issue 31)
    assert "Round 1 is not finalised" in response.json()["error"]
    assert response.json()["field"] is None


def test_bad_seed_error_names_the_field(api_as, event, organiser):
    response = api_as(organiser).post(
        api_url(event, "rounds/draft/"), {"seed": "soon"}, format="json"
    )
    assert response.status_code == 400 and response.json()["field"] == "seed"


def test_swap_checked_and_logged(api_as, event, organiser):
    rnd = rounds.generate_draft(event, organiser)
    one, two = Match.objects.filter(round=rnd).order_by("table_number")[:2]
    client = api_as(organiser)
    missing = client.post(
        api_url(event, "rounds/1/swap/"),
        {"team_a": one.home_id, "team_b": two.home_id},
        format="json",
    )
    assert missing.status_code == 400 and missing.json()["field"] == "reason"
    same = client.post(
        api_url(event, "rounds/1/swap/"),
        {"team_a": one.home_id, "team_b": one.home_id, "reason": "x"},
        format="json",
    )
    assert same.status_code == 400 and same.json()["field"] == "team_b"
    done = client.post(
        api_url(event, "rounds/1/swap/"),
        {"team_a": one.home_id, "team_b": two.home_id, "reason": "seating"},
        format="json",
    )
    assert done.status_code == 200
    assert done.json()["pairings"][0]["home"] == two.home_id
    assert AuditLog.objects.get(action="round.swap").reason == "seating"


def test_publish_and_start_clock(api_as, event, organiser):
    rounds.generate_draft(event, organiser)
    client = api_as(organiser)
    published = client.post(api_url(event, "rounds/1/publish/"))
    assert published.status_code == 200 and published.json()["status"] == "published"
    started = client.post(api_url(event, "rounds/1/start/"))
    assert started.status_code == 200 and started.json()["status"] == "in_play"
    assert started.json()["ends_at"] is not None
    again = client.post(api_url(event, "rounds/1/start/"))  # the round's state refuses: 409
    assert again.status_code == 409 and "Only a published round" in again.json()["error"]


def test_drafts_are_hidden_from_the_public(api, event, organiser):
    rounds.generate_draft(event, organiser)
    assert api.get(api_url(event, "rounds/")).json() == []
    assert api.get(api_url(event, "rounds/1/")).status_code == 404
    rounds.publish(Round.objects.get(event=event), organiser)
    assert [r["number"] for r in api.get(api_url(event, "rounds/")).json()] == [1]
    assert len(api.get(api_url(event, "rounds/1/")).json()["pairings"]) == 3


@pytest.mark.parametrize(
    "path, body",
    [
        ("rounds/draft/", {"seed": 1}),
        ("rounds/1/swap/", {"team_a": 1, "team_b": 2, "reason": "x"}),
        ("rounds/1/publish/", {}),
        ("rounds/1/start/", {}),
    ],
)
def test_writes_are_for_the_organiser_only(
    api_as, make_user, grant, make_event, event, organiser, path, body
):
    rounds.generate_draft(event, organiser)
    other = make_event()
    referee = grant(make_user(), other, Role.CHIEF_REFEREE)  # a referee of another event
    response = api_as(referee).post(api_url(event, path), body, format="json")
    assert response.status_code == 403 and "error" in response.json()
    chief_here = grant(make_user(), event, Role.CHIEF_REFEREE)
    assert api_as(chief_here).post(api_url(event, path), body, format="json").status_code == 403
    assert Round.objects.get(event=event).status == Round.Status.DRAFT


def test_standings_are_public_with_the_presets_order(api, event):
    a, b, c, d, e, f = event.teams.order_by("pk")
    play_round(event, 1, [(a, b), (c, d), (e, f)])
    play_round(event, 2, [(b, a), (d, c), (f, e)])
    body = api.get(api_url(event, "standings/")).json()
    assert [m["key"] for m in body["order"]] == list(event.get_preset().standings_order)
    assert body["order"][1]["label"] == "Total level difference"
    chinese = api.get(api_url(event, "standings/"), HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert chinese["order"][1]["label"] == "总级差"
    assert len(body["rows"]) == 6 and body["rows"][0]["points"] == 20
    assert body["rows"][0]["metrics"]["draw_lots"] is None  # no lots drawn
    after_one = api.get(api_url(event, "standings/?after_round=1")).json()
    assert after_one["after_round"] == 1 and after_one["rows"][0]["points"] == 13


def test_standings_bad_after_round_names_the_field(api, event):
    response = api.get(api_url(event, "standings/?after_round=x"))
    assert response.status_code == 400 and response.json()["field"] == "after_round"


def test_openapi_schema_documents_the_round_endpoints(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    for path in ("/rounds/draft/", "/rounds/{number}/swap/", "/standings/"):
        assert path in schema


def test_least_bad_round_publishes_through_the_api_only_with_confirm_reason(
    api_as, make_event, make_user, grant
):
    two = make_event(teams=2, num_rounds=3)
    user = grant(make_user(), two, Role.ORGANISER)
    client = api_as(user)
    client.post(api_url(two, "rounds/draft/"), {}, format="json")
    client.post(api_url(two, "rounds/1/publish/"))
    Round.objects.filter(event=two, number=1).update(status=Round.Status.FINALISED)
    drafted = client.post(api_url(two, "rounds/draft/"), {}, format="json").json()
    assert drafted["pairings"][0]["flags"] == ["rematch"]
    refused = client.post(api_url(two, "rounds/2/publish/"), {}, format="json")
    assert refused.status_code == 400 and refused.json()["field"] == "confirm_reason"
    published = client.post(
        api_url(two, "rounds/2/publish/"), {"confirm_reason": "two teams only"}, format="json"
    )
    assert published.status_code == 200 and published.json()["status"] == "published"
    assert AuditLog.objects.get(action="round.confirm_rematches").reason == "two teams only"
