"""Issue 39: the arbitration API keeps the pages' rule — a captain reads their own team's
record, appeals and rulings only (the pages refused another team's with 403 while the API
answered it: `/teams/<id>/record/`, `/appeals/<id>/`, `/rulings/<id>/`)."""

from __future__ import annotations

import pytest

from tests.factories import enter_result

BASE = "/api/arbitration/tournaments/{slug}/"
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def path(arb, tail):
    return BASE.format(slug=arb.event.slug) + tail


@pytest.fixture
def ruled(arb, api):
    """A ruling against Team 001 (table 1: Team 001 v Team 002) and its captain's appeal."""
    enter_result(arb)
    api.force_authenticate(arb.referee)
    incident = api.post(
        path(arb, "incidents/"),
        {
            "match": arb.match.pk,
            "team": arb.teams[0].pk,
            "category": "signalling",
            "description": "tapped the table",
        },
        format="json",
    ).json()["id"]
    api.force_authenticate(arb.chief)
    [ruling] = api.post(
        path(arb, f"incidents/{incident}/rulings/"),
        {"step": "level_deduction", "levels": 1, "reason": "signal"},
        format="json",
    ).json()
    api.force_authenticate(arb.captain)
    appeal = api.post(
        path(arb, f"rulings/{ruling['id']}/appeals/"), {"grounds": "a cough"}, format="json"
    ).json()
    return ruling["id"], appeal["id"]


def test_rule_a_captain_reads_only_their_own_teams_arbitration_records(arb, api, client, ruled):
    ruling, appeal = ruled
    own, other = arb.teams[0].pk, arb.teams[2].pk
    # the captain of Team 003 (another table): none of it, on the API as on the pages
    api.force_authenticate(arb.captain3)
    for tail in (f"teams/{own}/record/", f"rulings/{ruling}/", f"appeals/{appeal}/"):
        answer = api.get(path(arb, tail), **EN)
        assert answer.status_code == 403, tail
        body = answer.json()
        assert body["code"] == "forbidden" and "own team" in body["error"], tail
    client.force_login(arb.captain3)
    slug = arb.event.slug
    for page in (
        f"/arbitration/t/{slug}/teams/{own}/",
        f"/arbitration/t/{slug}/rulings/{ruling}/",
        f"/arbitration/t/{slug}/appeals/{appeal}/",
    ):
        assert client.get(page).status_code == 403, page
    # the lists name only the captain's own team's rulings and appeals
    assert api.get(path(arb, "rulings/")).json() == []
    assert api.get(path(arb, "appeals/")).json() == []
    assert api.get(path(arb, f"teams/{other}/record/")).status_code == 200  # their own
    # the captain of the team ruled against, and of the other team of that match, read it
    for captain in (arb.captain, arb.captain_away):
        api.force_authenticate(captain)
        assert api.get(path(arb, f"rulings/{ruling}/")).status_code == 200
        assert [r["id"] for r in api.get(path(arb, "rulings/")).json()] == [ruling]
    api.force_authenticate(arb.captain)
    assert api.get(path(arb, f"appeals/{appeal}/")).status_code == 200
    assert api.get(path(arb, f"teams/{own}/record/")).status_code == 200
    assert [a["id"] for a in api.get(path(arb, "appeals/")).json()] == [appeal]
    # the officials read every team's
    for official in (arb.chief, arb.referee2, arb.committee[0], arb.organiser):
        api.force_authenticate(official)
        for tail in (f"teams/{own}/record/", f"rulings/{ruling}/", f"appeals/{appeal}/"):
            assert api.get(path(arb, tail)).status_code == 200, (official, tail)
