"""REST API of stages and sections: organiser-only writes, errors with the field, public reads."""

from __future__ import annotations

import pytest

from tests import factories
from tournaments.models import Stage

pytestmark = pytest.mark.django_db


def url(event, path=""):
    return f"/api/tournaments/{event.slug}/{path}"


def test_the_organiser_sets_up_a_stage_with_sections_and_draws_its_round(api_as):
    event = factories.event(teams=8)
    client = api_as(factories.organiser_of(event))
    answer = client.post(
        url(event, "stages/"), {"name": "预赛", "kind": "swiss", "num_rounds": 3}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    stage = answer.json()
    assert stage["planned_rounds"] == 3 and stage["sections"] == []
    for name in ("A组", "B组"):
        assert (
            client.post(
                url(event, f"stages/{stage['id']}/sections/"), {"name": name}, format="json"
            ).status_code
            == 201
        )
    split = client.post(
        url(event, f"stages/{stage['id']}/split/"), {"method": "snake"}, format="json"
    )
    assert [len(s["teams"]) for s in split.json()["sections"]] == [4, 4]
    drawn = client.post(url(event, f"stages/{stage['id']}/draw/"), {"seed": 5}, format="json")
    assert drawn.status_code == 201
    assert drawn.json()["draw_seed"] == 5 and len(drawn.json()["pairings"]) == 4


def test_a_bad_match_format_is_refused_naming_the_field(api_as):
    event = factories.event(teams=4)
    answer = api_as(factories.organiser_of(event)).post(
        url(event, "stages/"),
        {"name": "Final", "kind": "knockout", "match_format": {"end": "soon"}},
        format="json",
    )
    assert answer.status_code == 400
    assert answer.json()["field"] == "match_format.format.end"
    assert not Stage.objects.exists()


def test_a_chief_referee_may_read_stages_but_not_write_them(api_as):
    event = factories.event(teams=4)
    factories.stage(event, name="Q")
    client = api_as(factories.chief_of(event))
    assert client.get(url(event, "stages/")).json()[0]["name"] == "Q"
    refused = client.post(url(event, "stages/"), {"name": "F", "kind": "knockout"}, format="json")
    assert refused.status_code == 403
    assert Stage.objects.filter(event=event).count() == 1


def test_stage_standings_and_the_final_ranking_are_public(api):
    event = factories.event(teams=4)
    stage = factories.stage(event, name="循环赛", kind="round_robin")
    for _ in range(3):
        factories.play_stage_round(stage)
    section = api.get(url(event, f"stages/{stage.pk}/standings/")).json()[0]
    assert len(section["rows"]) == 4 and section["rows"][0]["rank"] == 1
    ranking = api.get(url(event, "ranking/")).json()
    assert [row["team"] for row in ranking] == section["ranking"]
    assert ranking[0]["stage"] == "循环赛"
