"""Every standings output says under which edition of the rules it was made (issue 36): one
line built once (tournaments.rules_line) on the public and the organiser's standings pages,
the standings xlsx and PDF, the prize list PDF and the API's standings."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.readers import pdf_text, workbook
from tournaments.exporters import exports
from tournaments.models import Event
from tournaments.rules_line import rules_line

pytestmark = pytest.mark.django_db

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
NANSHAN = "规则：南山杯 2026 规则（1/0.5/0，缺席 −1）· 同分依次比："


@pytest.fixture
def nanshan(chinese_event):
    """The 苏州 open on the 南山杯 2026 edition, its order changed once (one change)."""
    Event.objects.filter(pk=chinese_event.pk).update(
        preset="guandan-nanshan-2026",
        settings={"standings_order": ["points", "opponents_points", "wins", "contribution"]},
    )
    chinese_event.refresh_from_db()
    return chinese_event


LINE = NANSHAN + "对手分、胜场数、贡献分 · 改动 1 处"


def test_the_line_is_built_from_the_edition_in_chinese_and_english(nanshan):
    with translation.override("zh-hans"):
        assert rules_line(nanshan) == LINE
    with translation.override("en"):
        english = rules_line(nanshan)
    assert english.startswith("Rules: Nanshan Cup 2026 rules (1/0.5/0, absent −1)")
    assert "ties broken by: Opponents' points, Wins, Contribution points" in english
    assert english.endswith("1 change from the edition")


def test_an_edition_as_shipped_says_no_change_and_its_own_points(chinese_event):
    Event.objects.filter(pk=chinese_event.pk).update(preset="guandan-national-2017")
    chinese_event.refresh_from_db()
    with translation.override("zh-hans"):
        line = rules_line(chinese_event)
    assert line.startswith("规则：2017 全国规则（3/2/1") and "改动" not in line


def test_public_and_organisers_standings_pages_show_it(client, nanshan, make_user, grant):
    page = client.get(reverse("tournaments:public-standings", args=[nanshan.slug]), **ZH)
    assert LINE in page.content.decode()
    organiser = make_user()
    grant(organiser, nanshan, "organiser")
    client.force_login(organiser)
    page = client.get(reverse("tournaments:manage-standings", args=[nanshan.slug]), **ZH)
    assert LINE in page.content.decode()


def test_standings_xlsx_says_it_above_the_table_and_in_the_print_header(nanshan):
    with translation.override("zh-hans"):
        book = workbook(exports.render_now(nanshan, "standings-xlsx").data)
    for sheet in book.worksheets:
        assert sheet["A2"].value == "苏州掼蛋公开赛"
        assert sheet["C2"].value == LINE, sheet.title
        assert sheet.oddHeader.center.text == LINE


def test_standings_pdf_and_prize_list_pdf_say_it(nanshan):
    with translation.override("zh-hans"):
        standings = pdf_text(exports.render_now(nanshan, "standings-pdf").data)
        prizes = pdf_text(exports.render_now(nanshan, "prizes-pdf").data)
    flat = LINE.replace(" ", "")
    assert flat in standings.replace(" ", "").replace("\n", "")
    assert flat in prizes.replace(" ", "").replace("\n", "")


def test_api_standings_carry_the_rules(nanshan, api):
    body = api.get(f"/api/tournaments/{nanshan.slug}/standings/", **ZH).json()
    assert body["rules"] == LINE


def test_the_public_page_follows_a_change_of_the_edition(client, chinese_event, make_user, grant):
    """A cached public standings page says the new rules once the settings change."""
    from tournaments.services import event_settings

    url = reverse("tournaments:public-standings", args=[chinese_event.slug])
    assert "改动" not in client.get(url, **ZH).content.decode()
    organiser = make_user()
    grant(organiser, chinese_event, "organiser")
    event_settings.update_settings(
        Event.objects.get(pk=chinese_event.pk), organiser, {"settings": {"fail_a_limit": 3}}
    )
    page = client.get(url, **ZH).content.decode()
    assert "· 改动 1 处</p>" in page
