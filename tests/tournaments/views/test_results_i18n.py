"""The rules engine's refusals and rulings reach referees in Chinese by default and in English
on request: the table page's preview (through the results API), the chief's correction page,
the rules desk and the API's error shape."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from rules_engine.errors import RulesError
from rules_engine.i18n import t
from tests.factories import guandan_record
from tournaments.api.errors import exception_handler

pytestmark = pytest.mark.django_db

SEAT_TWICE = guandan_record([{"finish": ["E", "E", "S"]}])
MISSED_MUST_PLAY = {
    "game": "chengyu",
    "trump": "H",
    "hand": "S2 S8 D4",
    "trick": "S7",
    "play": "S2",
}


def preview(event, **headers):
    client = APIClient(**headers)
    client.force_authenticate(event.referee)
    path = f"/api/tournaments/{event.event.slug}/matches/{event.match.pk}/preview/"
    return client.post(path, {"record": SEAT_TWICE}, format="json")


def test_table_preview_refusal_is_chinese_by_default(event):
    response = preview(event)
    assert response.status_code == 400
    assert response.json()["error"] == "第 1 副的出完顺序：座位 东 出现了两次"  # in words
    assert response.json()["field"] == "record.deals[0].finish"


def test_table_preview_refusal_is_english_on_request(event):
    response = preview(event, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response.json()["error"] == "deal 1, finish order: seat East appears twice"


def correction_page(event, client, **headers) -> str:
    client.force_login(event.chief)
    url = f"/t/{event.event.slug}/results/match/{event.match.pk}/action/"
    response = client.post(
        url,
        {
            "action": "correct",
            "base_version": 0,
            "reason": "typo",
            "record": json.dumps(SEAT_TWICE),
        },
        follow=True,
        **headers,
    )
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def test_chief_correction_refusal_speaks_the_page_language(event, client):
    assert "第 1 副的出完顺序：座位 东 出现了两次" in correction_page(event, client)
    assert "deal 1, finish order: seat East appears twice" in correction_page(
        event, client, HTTP_ACCEPT_LANGUAGE="en"
    )


def desk_page(arb_event, client, fields, **headers) -> tuple[str, dict]:
    client.force_login(arb_event.chief)
    url = reverse("arbitration:desk", args=[arb_event.event.slug])
    response = client.post(url, {"action": "check", **fields}, **headers)
    assert response.status_code == 200
    text = html.unescape(response.content.decode())
    ruling = re.search(r'<div class="card" id="desk-ruling">(.*?)<details', text, re.S).group(1)
    answer = json.loads(re.search(r'<pre id="desk-answer">(.*?)</pre>', text, re.S).group(1))
    return ruling, answer


def test_rules_desk_ruling_is_chinese_by_default_and_the_answer_stays_the_cli_json(event, client):
    ruling, answer = desk_page(event, client, MISSED_MUST_PLAY)
    assert "须用 ♠8 接龙头 ♠7（必出）" in ruling  # cards in words (issue 24: no S8 on a page)
    assert answer["reason"] == "must chain to S7 (必出) with S8"  # the engine's JSON keeps codes


def test_rules_desk_ruling_is_english_on_request(event, client):
    ruling, _ = desk_page(event, client, MISSED_MUST_PLAY, HTTP_ACCEPT_LANGUAGE="en")
    assert "must chain to ♠7 (必出) with ♠8" in ruling


def test_rules_desk_bad_request_names_the_field_in_chinese(event, client):
    ruling, answer = desk_page(event, client, {"game": "guandan", "level": "7", "play": "S1"})
    assert "所出的第 1 张牌：未知的牌 'S1'" in ruling and "(所出的第 1 张牌)" in ruling
    assert answer["error"].startswith("play[0]: unknown card 'S1'")


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("zh-hans", "所打级数须为级牌 2..10、J、Q、K 或 A，而不是 'Z'"),
        ("en", "level must be a level 2..10, J, Q, K or A, not 'Z'"),
    ],
)
def test_api_error_for_a_rules_error_is_in_the_request_language(lang, expected):
    error = RulesError(
        t("{field} must be a level 2..10, J, Q, K or A, not {text!r}", field="level", text="Z"),
        "level",
    )
    with translation.override(lang):
        response = exception_handler(error, {})
    assert response.status_code == 400
    assert response.data == {"error": expected, "field": "level", "code": "invalid"}
