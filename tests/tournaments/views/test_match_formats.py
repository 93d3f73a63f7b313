"""The table page under the event's match format (SPEC 2): it names the format, carries the
engine's reasons for the end of a match in the reader's language, and the time call."""

from __future__ import annotations

import html
import json
import re

import pytest

pytestmark = pytest.mark.django_db


def page_of(event, client, lang="zh-hans"):
    client.force_login(event.referee)
    page = client.get(f"/t/{event.tournament.slug}/table/1/", HTTP_ACCEPT_LANGUAGE=lang)
    assert page.status_code == 200
    return page.content.decode()


def script(text, name):
    found = re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', text, re.S)
    return json.loads(html.unescape(found.group(1)))


def play_as(event, fmt):
    event.tournament.settings = {"match_format": fmt}
    event.tournament.save(update_fields=["settings"])


def test_table_page_names_the_match_format_in_chinese_and_english(event, client):
    play_as(event, {"end": "time_or_deals", "deals": 8, "minutes": 50})
    text = page_of(event, client)
    assert "比赛方式: 计时计副制：50 分钟或 8 副，先到为止" in text
    assert "50 minutes or 8 deals, whichever comes first" in page_of(event, client, "en")


def test_table_page_carries_the_engines_end_reasons_and_the_over_message(event, client):
    play_as(event, {"end": "deals", "deals": 8})
    text = page_of(event, client)
    config, strings = script(text, "table-config"), script(text, "table-strings")
    assert config["format"]["end"] == "deals" and config["format"]["deals"] == 8
    assert config["end_reasons"]["deals"] == "已打满规定副数"
    assert config["end_reasons"]["passed_a"] == "一方已过A"
    assert strings["match_over"] == "比赛已结束：%s"
    assert config["timed"] is False and 'id="time-call"' not in text
    english = script(page_of(event, client, "en"), "table-config")
    assert english["end_reasons"]["deals"] == "the set number of deals was played"


def test_a_timed_format_offers_the_time_call(event, client):
    play_as(event, {"end": "time"})
    text = page_of(event, client)
    assert script(text, "table-config")["timed"] is True
    assert 'id="time-call"' in text and "时间到（在当前这一副进行中）" in text


def test_without_a_format_the_page_names_none_and_still_knows_passing_a(event, client):
    text = page_of(event, client)
    config = script(text, "table-config")
    assert config["format"] is None and 'id="match-format"' not in text
    assert config["end_reasons"]["passed_a"] == "一方已过A"


def test_a_match_format_setting_is_checked_by_the_event_settings_schema(event, client):
    from django.core.exceptions import ValidationError

    event.tournament.settings = {"match_format": {"end": "deals"}}
    with pytest.raises(ValidationError) as err:
        event.tournament.full_clean()
    assert "format.deals" in str(err.value)
