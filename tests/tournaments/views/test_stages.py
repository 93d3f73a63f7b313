"""Organiser pages of stages and sections: create, add sections, assign, split, draw."""

from __future__ import annotations

import pytest

from tests import factories
from tournaments.models import AuditLog, Round, Stage

pytestmark = pytest.mark.django_db


def page(event, path=""):
    return f"/t/{event.slug}/manage/stages/{path}"


def test_the_organiser_creates_a_stage_with_its_match_format_on_the_page(client):
    event = factories.event(teams=8)
    client.force_login(factories.organiser_of(event))
    answer = client.post(
        page(event, "new/"),
        {
            "name": "决赛",
            "kind": "knockout",
            "end": "deals",
            "deals": "4",
            "entrants": "all",
            "third_place": "on",
        },
    )
    stage = Stage.objects.get(event=event)
    assert answer.status_code == 302 and answer["Location"].endswith(f"/stages/{stage.pk}/")
    assert stage.match_format == {"end": "deals", "deals": 4} and stage.third_place
    shown = client.get(page(event, f"{stage.pk}/"))
    assert shown.status_code == 200 and "决赛" in shown.content.decode()


def test_a_refused_stage_says_why_and_stores_nothing(client):
    event = factories.event(teams=4)
    client.force_login(factories.organiser_of(event))
    answer = client.post(
        page(event, "new/"),
        {"name": "Q", "kind": "swiss", "entrants": "all"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "A Swiss stage needs its number of rounds." in answer.content.decode()
    assert not Stage.objects.exists()


def test_sections_assignment_and_the_draw_from_the_stage_page(client):
    event = factories.event(teams=6)
    stage = factories.stage(event, name="小组赛", kind="round_robin")
    client.force_login(factories.organiser_of(event))
    client.post(page(event, f"{stage.pk}/sections/"), {"name": "A组"})
    client.post(page(event, f"{stage.pk}/sections/"), {"name": "B组"})
    a, b = stage.sections.order_by("order")
    teams = list(event.teams.order_by("pk").values_list("pk", flat=True))
    client.post(page(event, f"{stage.pk}/assign/"), {"section": a.pk, "teams": teams[:3]})
    client.post(page(event, f"{stage.pk}/assign/"), {"section": b.pk, "teams": teams[3:]})
    assert list(a.entries.values_list("team_id", flat=True)) == teams[:3]
    answer = client.post(page(event, f"{stage.pk}/draw/"))
    rnd = Round.objects.get(stage=stage)
    assert answer["Location"].endswith(f"/rounds/{rnd.number}/")
    assert (
        rnd.matches.exclude(away=None).count() == 2 and rnd.matches.filter(away=None).count() == 2
    )
    assert AuditLog.objects.filter(action="section.assign").count() == 2


def test_a_chief_referee_reads_the_stages_but_may_not_add_one(client):
    event = factories.event(teams=4)
    client.force_login(factories.chief_of(event))
    assert client.get(page(event)).status_code == 200
    assert (
        client.post(
            page(event, "new/"), {"name": "Q", "kind": "knockout", "entrants": "all"}
        ).status_code
        == 403
    )
    assert not Stage.objects.exists()


def test_the_stages_page_speaks_chinese_by_default(client):
    event = factories.event(teams=4)
    stage = factories.stage(event, name="预赛")
    client.force_login(factories.organiser_of(event))
    listing = client.get(page(event), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "阶段与分组" in listing and "添加阶段" in listing
    detail = client.get(page(event, f"{stage.pk}/"), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "编排本阶段下一轮" in detail.content.decode()


def test_garbage_in_the_assignment_form_is_refused_with_a_message(client):
    event = factories.event(teams=4)
    stage = factories.stage(event)
    (section,) = factories.sections(stage, "A")
    client.force_login(factories.organiser_of(event))
    for data in (
        {"section": "abc", "teams": ["1"]},
        {"section": section.pk, "teams": ["x"]},
        {"section": section.pk, "teams": ["9" * 30]},
        {"section": "9" * 30},
    ):
        answer = client.post(page(event, f"{stage.pk}/assign/"), data)
        assert answer.status_code in (302, 400, 404)
    assert not section.entries.exists()
