"""The public bracket page of a knockout stage: seeds 1 v N, byes to the top seeds, round
names from the knockout module's keys in Chinese and English, winners marked, cached."""

from __future__ import annotations

import pytest

from tests import factories
from tournaments.services import stage_rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def knockout():
    event = factories.event(teams=0)
    for i in range(1, 7):
        factories.team(event, f"S{i}", seed=i)
    stage = factories.stage(
        event,
        name="决赛阶段",
        kind="knockout",
        third_place=True,
        match_format={"end": "deals", "deals": 1},
    )
    return event, stage


def page(client, event, stage, lang="zh-hans"):
    response = client.get(f"/t/{event.slug}/stages/{stage.pk}/bracket/", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return response.content.decode()


def test_bracket_names_the_rounds_and_gives_the_byes_to_the_top_seeds(client, knockout):
    event, stage = knockout
    stage_rounds.draw_round(stage, factories.organiser_of(event))
    text = page(client, event, stage)
    for name in ("四分之一决赛", "半决赛", "决赛", "三四名决赛"):
        assert name in text
    assert text.count("轮空") == 2  # seeds 1 and 2
    english = page(client, event, stage, "en")
    assert (
        "Quarter-finals" in english and "Semi-finals" in english and "Third-place match" in english
    )


def test_bracket_marks_the_winners_and_the_champion(client, knockout):
    event, stage = knockout
    for _ in range(3):  # quarter-finals, semi-finals, final: the better seed wins every match
        factories.play_stage_round(stage)
    text = page(client, event, stage)
    assert "冠军: <strong>S1</strong>" in text
    assert text.count('class="bracket-side won"') == 4 + 2 + 1 + 1  # byes go through too
    assert "晋级" in text


def test_a_stage_that_is_no_knockout_has_no_bracket(client, knockout):
    event, _ = knockout
    swiss = factories.stage(event, name="Q", kind="swiss", num_rounds=2)
    response = client.get(f"/t/{event.slug}/stages/{swiss.pk}/bracket/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404


def test_the_bracket_page_is_cached_per_revision(client, knockout):
    event, stage = knockout
    first = client.get(f"/t/{event.slug}/stages/{stage.pk}/bracket/")
    again = client.get(
        f"/t/{event.slug}/stages/{stage.pk}/bracket/", HTTP_IF_NONE_MATCH=first["ETag"]
    )
    assert again.status_code == 304
