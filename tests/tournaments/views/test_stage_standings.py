"""Public standings per stage and per section (SPEC §2): section tabs on the standings page,
a stage/section filter on the public API; each cached per revision like the other pages."""

from __future__ import annotations

import pytest

from tests import factories
from tournaments.models import Team
from tournaments.services import stage_sections

pytestmark = pytest.mark.django_db


@pytest.fixture
def sectioned():
    event = factories.event(teams=8)
    stage = factories.stage(event, name="资格赛", num_rounds=2)
    men, women = factories.sections(stage, "男双", "女双")
    teams = list(Team.objects.filter(event=event).order_by("name"))
    who = factories.organiser_of(event)
    stage_sections.assign_teams(men, who, [t.pk for t in teams[:4]])
    stage_sections.assign_teams(women, who, [t.pk for t in teams[4:]])
    factories.play_stage_round(stage)
    return event, stage, men, women, teams


def test_standings_page_has_stage_and_section_tabs_and_shows_one_section(client, sectioned):
    event, stage, men, women, teams = sectioned
    url = f"/t/{event.slug}/standings/"
    text = client.get(
        f"{url}?stage={stage.pk}&section={women.pk}", HTTP_ACCEPT_LANGUAGE="zh-hans"
    ).content.decode()
    assert 'id="stage-tabs"' in text and "资格赛" in text and "最终名次" in text
    assert 'id="section-tabs"' in text and "男双" in text
    assert "资格赛 · 女双" in text  # the heading names the stage and the section shown
    shown = [t.name for t in teams if f'data-team="{t.pk}"' in text]
    assert shown == [t.name for t in teams[4:]]
    whole = client.get(url).content.decode()
    assert all(f'data-team="{t.pk}"' in whole for t in teams)


def test_a_stage_ranks_its_sections_place_by_place(client, sectioned):
    event, stage, *_ = sectioned
    text = client.get(f"/t/{event.slug}/standings/?stage={stage.pk}").content.decode()
    assert text.count("data-team=") == 8
    assert text.count('<td class="num">1=</td>') == 2  # the two section winners share 1st


def test_public_api_filters_by_section_and_refuses_an_unknown_one(api, sectioned):
    event, stage, men, women, teams = sectioned
    base = f"/api/tournaments/{event.slug}/public/standings/"
    body = api.get(base, {"stage": stage.pk, "section": men.pk}).json()
    assert body["stage"] == stage.pk and body["section"] == men.pk
    assert {row["team"] for row in body["results"]} == {t.pk for t in teams[:4]}
    missing = api.get(base, {"stage": stage.pk, "section": 999999})
    assert missing.status_code == 404 and missing.json()["field"] == "section"


def test_each_section_is_cached_apart(client, sectioned):
    event, stage, men, women, _ = sectioned
    url = f"/t/{event.slug}/standings/?stage={stage.pk}&section="
    one, two = client.get(url + str(men.pk)), client.get(url + str(women.pk))
    assert one["ETag"] != two["ETag"]
    assert client.get(url + str(men.pk), HTTP_IF_NONE_MATCH=one["ETag"]).status_code == 304
