"""The rules desk answers the SPEC 4.5 examples of every game as the CLI does, through the page."""

import html
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from arbitration.models import Evidence
from arbitration.services import ArbitrationError
from arbitration.services.desk import build_request
from arbitration.services.incidents import log_incident

ROOT = Path(__file__).resolve().parents[3]

# (form fields as a referee types them, the same request as JSON for the CLI)
EXAMPLES = {
    "guandan_pair_beats_pair": (
        {"game": "guandan", "level": "7", "previous": "S5 H5", "play": "S6 H7"},
        {"game": "guandan", "level": "7", "previous": ["S5", "H5"], "play": ["S6", "H7"]},
    ),
    "tractor_must_follow_the_pair": (
        {
            "game": "tractor",
            "trump": "S",
            "level": "5",
            "hand": "C3 C8 C5 C5 HK",
            "lead": "C9 C9",
            "play": "C3 C8",
        },
        {
            "game": "tractor",
            "trump": "S",
            "level": "5",
            "hand": ["C3", "C8", "C5", "C5", "HK"],
            "lead": ["C9", "C9"],
            "play": ["C3", "C8"],
        },
    ),
    "tractor_failed_throw_penalty_and_forced_play": (
        {
            "game": "tractor",
            "trump": "S",
            "level": "5",
            "throw": "CA CK",
            "others": "CA D3\nH4\nS6",
        },
        {
            "game": "tractor",
            "trump": "S",
            "level": "5",
            "throw": ["CA", "CK"],
            "others": [["CA", "D3"], ["H4"], ["S6"]],
        },
    ),
    "chengyu_missed_compulsory_play": (
        {"game": "chengyu", "trump": "H", "hand": "S2 S8 D4", "trick": "S7", "play": "S2"},
        {
            "game": "chengyu",
            "trump": "H",
            "hand": ["S2", "S8", "D4"],
            "trick": ["S7"],
            "play": "S2",
        },
    ),
    "guandan_illegal_combination": (
        {"game": "guandan", "level": "2", "play": "S3 S4"},
        {"game": "guandan", "level": "2", "play": ["S3", "S4"]},
    ),
}


def run_cli(action: str, request) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "rules_engine", action, "-"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        check=False,
    )


def cli(action: str, request) -> dict:
    return json.loads(run_cli(action, request).stdout)


def page_answer(client, arb, fields) -> dict:
    client.force_login(arb.referee)
    data = {"action": "check", **fields}
    response = client.post(
        reverse("arbitration:desk", args=[arb.event.slug]), data, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    found = re.search(r'<pre id="desk-answer">(.*?)</pre>', response.content.decode(), re.S)
    return json.loads(html.unescape(found.group(1)))


@pytest.mark.parametrize("name", EXAMPLES)
def test_desk_answers_spec_examples_as_the_cli(arb, client, name):
    fields, request = EXAMPLES[name]
    assert page_answer(client, arb, fields) == cli("check", request)


def test_desk_shows_failed_throw_penalty_and_forced_play(arb, client):
    client.force_login(arb.referee)
    fields = EXAMPLES["tractor_failed_throw_penalty_and_forced_play"][0]
    response = client.post(
        reverse("arbitration:desk", args=[arb.event.slug]),
        {"action": "check", **fields},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    text = response.content.decode()
    assert "Illegal" in text and "Failed throw penalty" in text
    answer = cli("check", EXAMPLES["tractor_failed_throw_penalty_and_forced_play"][1])
    assert answer["penalty_points"] == 10 and answer["forced_play"] == ["CK"]


def test_desk_takes_a_pasted_request_as_it_is(arb, client):
    request = EXAMPLES["chengyu_missed_compulsory_play"][1]
    answer = page_answer(client, arb, {"game": "guandan", "json": json.dumps(request)})
    assert answer == cli("check", request)
    assert answer["legal"] is False


def test_desk_answers_bad_input_with_the_field_not_a_traceback(arb, client):
    answer = page_answer(client, arb, {"game": "guandan", "level": "7", "play": "S1"})
    done = run_cli("check", {"game": "guandan", "level": "7", "play": ["S1"]})
    assert done.returncode != 0
    assert answer["field"] == "play[0]" and f"error: {answer['error']}" in done.stderr


def test_desk_classifies_cards(arb, client):
    answer = page_answer(client, arb, {"game": "guandan", "level": "7", "cards": "S5 S5 H7"})
    assert answer == cli("classify", {"game": "guandan", "level": "7", "cards": ["S5", "S5", "H7"]})


def test_desk_reads_hands_and_a_pasted_play_log():
    action, request = build_request(
        {
            "game": "guandan",
            "level": "2",
            "hands": "E: S3 S4\n北：H5",
            "play_log": '[{"seat": "E", "cards": ["S3"]}]',
        }
    )
    assert request["hands"] == {"E": ["S3", "S4"], "N": ["H5"]}
    assert request["play_log"] == [{"seat": "E", "cards": ["S3"]}]
    with pytest.raises(ArbitrationError) as err:
        build_request({"game": "guandan", "hands": "East S3"})
    assert err.value.field == "hands"
    with pytest.raises(ArbitrationError) as err:
        build_request({"json": "{nope"})
    assert err.value.field == "json"


def test_desk_ruling_attached_to_an_incident_as_evidence(arb, client):
    incident = log_incident(
        arb.event,
        arb.referee,
        category="missed_compulsory",
        description="played S2",
        match=arb.match,
        team=arb.teams[0],
    )
    client.force_login(arb.referee)
    fields, request = EXAMPLES["guandan_pair_beats_pair"]
    response = client.post(
        reverse("arbitration:desk", args=[arb.event.slug]),
        {"action": "check", "incident": incident.pk, "attach": "1", **fields},
    )
    assert response.status_code == 302
    evidence = Evidence.objects.get(incident=incident)
    assert evidence.request == request and evidence.answer == cli("check", request)


def test_desk_is_for_referees(arb, client):
    client.force_login(arb.captain)
    response = client.get(reverse("arbitration:desk", args=[arb.event.slug]))
    assert response.status_code == 403


SPEC_SCORES = [
    {
        "game": "guandan",
        "preset": "guandan-suzhou-2016",
        "deals": [{"finish": ["E", "W", "S", "N"]}, {"finish": ["S", "E", "N", "W"]}],
        "forfeit": None,
    },
    {
        "game": "tractor",
        "preset": "tractor",
        "deals": [
            {
                "dealer": "EW",
                "defender_points": 85,
                "bottom_points": 15,
                "bottom_multiplier": 4,
                "failed_throws": [{"side": "NS", "cards": 2}],
            }
        ],
    },
    {
        "game": "chengyu",
        "preset": "chengyu",
        "deals": [{"tricks": {"EW": 8, "NS": 5}}, {"tricks": {"EW": 6, "NS": 7}}],
    },
]


@pytest.mark.parametrize("record", SPEC_SCORES, ids=lambda r: r["game"])
def test_desk_scores_the_spec_match_records_as_the_cli(arb, client, record):
    fields = {"game": record["game"], "action": "score", "json": json.dumps(record)}
    assert page_answer(client, arb, fields) == cli("score", record)


# --- the desk on a phone: legal plays as cards, a tractor play log, the JSON behind details ---


def post_desk(client, arb, fields, lang="zh-hans"):
    client.force_login(arb.referee)
    response = client.post(
        reverse("arbitration:desk", args=[arb.event.slug]),
        {"action": "check", **fields},
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert response.status_code == 200
    return response.content.decode()


def test_desk_lists_legal_plays_as_cards_in_chinese(arb, client):
    fields = {
        "game": "tractor",
        "trump": "S",
        "level": "5",
        "hand": "C3 C8 C6 C6 HK",
        "lead": "C9 C9",
        "list_plays": "on",
    }
    page = post_desk(client, arb, fields)
    plays = re.search(r'<div id="legal-plays">(.*?)</div>', page, re.S).group(1)
    assert "1 种合法出牌" in plays and "跟牌" in plays
    assert plays.count('class="playing-card"') == 2 and "♣6" in plays
    request = {
        "game": "tractor",
        "trump": "S",
        "level": "5",
        "hand": ["C3", "C8", "C6", "C6", "HK"],
        "lead": ["C9", "C9"],
        "list": True,
    }
    found = re.search(r'<pre id="desk-answer">(.*?)</pre>', page, re.S)
    assert json.loads(html.unescape(found.group(1))) == cli("check", request)


def test_desk_lists_guandan_plays_with_their_reading_and_red_suits(arb, client):
    fields = {
        "game": "guandan",
        "level": "7",
        "hand": "S9 C9 H7 D9 S9 HK",
        "previous": "S5 H5",
        "list_plays": "on",
    }
    page = post_desk(client, arb, fields)
    plays = re.search(r'<div id="legal-plays">(.*?)</div>', page, re.S).group(1)
    assert "炸弹 9" in plays and "对子 K" in plays
    assert '<span class="playing-card red" data-card="HK">♥K</span>' in plays


def test_desk_keeps_the_engine_json_behind_a_details_toggle(arb, client):
    page = post_desk(client, arb, EXAMPLES["guandan_pair_beats_pair"][0])
    assert '<details id="desk-details">' in page and "详情" in page


def test_desk_replays_a_pasted_tractor_play_log_and_shows_the_deal_record(arb, client):
    from tests.rules_engine.tractor_deal import REFEREE_DEAL, request

    page = post_desk(client, arb, {"game": "tractor", "json": json.dumps(request())})
    replay = re.search(r'<div id="desk-replay">(.*?)</div>', page, re.S).group(1)
    assert "已打 25 墩；闲家在墩中得 130 分" in replay and "乘以 2" in replay
    deal = re.search(r'<code id="desk-deal">(.*?)</code>', replay).group(1)
    assert json.loads(html.unescape(deal)) == REFEREE_DEAL


def test_desk_takes_a_tractor_play_log_from_its_fields():
    action, request = build_request(
        {
            "game": "tractor",
            "trump": "S",
            "level": "5",
            "dealer": "EW",
            "bottom": "SK S5",
            "hands": "E: CA\nN: S2\nW: C3\nS: D2",
            "play_log": '[{"seat": "E", "cards": ["CA"]}]',
        }
    )
    assert request["dealer"] == "EW" and request["bottom"] == ["SK", "S5"]
    assert request["hands"]["N"] == ["S2"] and action == "check"


def test_desk_picker_knows_the_decks_and_each_cards_idiom(arb, client):
    client.force_login(arb.referee)
    page = client.get(reverse("arbitration:desk", args=[arb.event.slug])).content.decode()
    data = json.loads(
        re.search(
            r'<script id="picker-data" type="application/json">(.*?)</script>', page, re.S
        ).group(1)
    )
    assert data["decks"] == {"guandan": 2, "tractor": 3, "chengyu": 1}
    assert data["idioms"]["S7"] == "助人为乐" and len(data["idioms"]) == 52


def test_desk_shows_each_idiom_card_with_its_idiom(arb, client):
    fields = {
        "game": "chengyu",
        "trump": "H",
        "hand": "DQ CA D3",
        "trick": "DK",
        "list_plays": "on",
    }
    page = post_desk(client, arb, fields)
    plays = re.search(r'<div id="legal-plays">(.*?)</div>', page, re.S).group(1)
    deck = json.loads((ROOT / "rules_engine/chengyu/idioms.json").read_text("utf-8"))["cards"]
    assert f'<small class="idiom">{deck["DQ"]}</small>' in plays and "接龙" in plays


def test_desk_takes_a_play_log_one_play_a_line():
    _, request = build_request(
        {
            "game": "tractor",
            "trump": "S",
            "level": "5",
            "dealer": "EW",
            "hands": "E: CA\nN: S2\nW: C3\nS: D2",
            "play_log": "E: CA\n北：S2\nW: C3\nS",
        }
    )
    assert request["play_log"] == [
        {"seat": "E", "cards": ["CA"]},
        {"seat": "N", "cards": ["S2"]},
        {"seat": "W", "cards": ["C3"]},
        {"seat": "S", "cards": []},
    ]
    with pytest.raises(ArbitrationError) as err:
        build_request({"game": "tractor", "play_log": "East CA"})
    assert err.value.field == "play_log"


# --- issue 28: a tractor throw is followed unit by unit (seed 拖拉机 三.2(4); SPEC §4.3) ---

T5 = {"game": "tractor", "trump": "S", "level": "5"}
THROW_EXAMPLES = {
    # name: (form fields, legal, kill)
    "seed_3_2_4_two_tractors_mirrored_answer_legal": (
        {
            "hand": "C2 C2 C3 C3 C4 C4 CT CT CJ CJ CQ D3",
            "lead": "CA CA CK CK C9 C9 C8 C8",
            "play": "C2 C2 C3 C3 CT CT CJ CJ",
        },
        True,
        False,
    ),
    "seed_3_2_4_two_tractors_long_run_and_pair_illegal": (
        {
            "hand": "C2 C2 C3 C3 C4 C4 CT CT CJ CJ CQ D3",
            "lead": "CA CA CK CK C9 C9 C8 C8",
            "play": "C2 C2 C3 C3 C4 C4 CT CT",
        },
        False,
        False,
    ),
    "seed_3_2_4_tractor_and_pair_answered_by_tractor_and_pair": (
        {
            "hand": "C2 C2 C3 C3 C4 C4 C7 C7 CQ D3",
            "lead": "CA CA CK CK C9 C9",
            "play": "C2 C2 C3 C3 C7 C7",
        },
        True,
        False,
    ),
    "seed_3_2_4_two_loose_pairs_answered_by_two_loose_pairs": (
        {"hand": "C2 C2 C3 C3 C4 C4 C7", "lead": "CA CA C9 C9", "play": "C2 C2 C4 C4"},
        True,
        False,
    ),
}


@pytest.mark.parametrize("name", THROW_EXAMPLES)
def test_desk_follows_a_throw_unit_by_unit_as_the_cli(arb, client, name):
    fields, legal, kill = THROW_EXAMPLES[name]
    request = T5 | {key: value.split() for key, value in fields.items()}
    answer = page_answer(client, arb, T5 | fields)
    assert answer == cli("check", request)
    assert (answer["legal"], answer["kill"]) == (legal, kill), answer["reason"]


def test_desk_flexible_kill_of_a_throw_laid_out_as_its_units(arb, client):
    request = T5 | {
        "hand": ["S2", "S2", "S3", "S3", "S4", "S4", "H3"],
        "lead": ["CA", "CA", "CK", "CK", "C9", "C9"],
        "play": ["S2", "S2", "S3", "S3", "S4", "S4"],
        "settings": {"tractor_kill_reading": "flexible"},
    }
    answer = page_answer(client, arb, {"game": "tractor", "json": json.dumps(request)})
    assert answer == cli("check", request) and answer["kill"] is True
