"""The results API under the event's match format (SPEC 2): the engine says when the match is
over, and a deal after the end is refused with the reason ({error, field}), nothing stored."""

from __future__ import annotations

import pytest

from tests.factories import guandan_record
from tournaments.models import AuditLog, ResultVersion

pytestmark = pytest.mark.django_db

EW_UP3 = {"finish": ["E", "W", "S", "N"]}
EW_UP1 = {"finish": ["E", "N", "S", "W"]}
NS_UP1 = {"finish": ["N", "E", "W", "S"]}
NS_UP3 = {"finish": ["N", "S", "E", "W"]}


def url(event, what):
    return f"/api/tournaments/{event.event.slug}/matches/{event.match.pk}/{what}/"


def play_as(event, fmt):
    event.event.settings = {"match_format": fmt}
    event.event.save(update_fields=["settings"])


def submit(event, api_as, record, **headers):
    client = api_as(event.referee)
    return client.post(
        url(event, "result"), {"record": record, "base_version": 0}, format="json", **headers
    )


def test_n_deals_match_refuses_a_fourth_deal_naming_it_and_why(event, api_as):
    play_as(event, {"end": "deals", "deals": 3})
    response = submit(event, api_as, guandan_record([EW_UP3, NS_UP1, EW_UP1, NS_UP3]))
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "record.deals[3]"
    assert "the match was over after deal 3 (the set number of deals was played)" in body["error"]
    assert not ResultVersion.objects.filter(match=event.match).exists()
    refused = AuditLog.objects.get(action="result.refused")
    assert refused.data["field"] == "record.deals[3]"  # the refused record is kept


def test_the_refusal_is_chinese_for_a_chinese_reader(event, api_as):
    play_as(event, {"end": "deals", "deals": 1})
    response = submit(
        event, api_as, guandan_record([EW_UP3, EW_UP3]), HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    assert response.status_code == 400
    assert "比赛在第 1 副后已结束（已打满规定副数）" in response.json()["error"]


def test_the_stored_record_carries_the_events_format_and_the_answer_says_over(event, api_as):
    fmt = {"end": "deals", "deals": 3}
    play_as(event, fmt)
    response = submit(event, api_as, guandan_record([EW_UP3, NS_UP1, EW_UP1]))
    assert response.status_code == 201, response.json()
    version = ResultVersion.objects.get(match=event.match)
    assert version.record["format"] == {**fmt, "minutes": 60, "games": 1, "knockout": False}
    assert version.outcome["over"] is True and version.outcome["end"] == "deals"


def test_preview_says_the_match_goes_on_before_the_set_number(event, api_as):
    play_as(event, {"end": "deals", "deals": 3})
    response = api_as(event.referee).post(
        url(event, "preview"), {"record": guandan_record([EW_UP3])}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["over"] is False and response.json()["end"] is None


def test_pass_a_match_refuses_a_deal_after_a_side_passed_a(event, api_as):
    play_as(event, {"end": "pass_a"})
    response = submit(event, api_as, guandan_record([EW_UP3] * 5 + [NS_UP1]))
    assert response.status_code == 400 and response.json()["field"] == "record.deals[5]"
    assert "(a side passed A)" in response.json()["error"]


def test_time_match_refuses_a_deal_after_the_deal_in_play_when_time_was_called(event, api_as):
    play_as(event, {"end": "time", "minutes": 50})
    record = guandan_record([EW_UP3, NS_UP1, EW_UP1], time_called_in_deal=2)
    response = submit(event, api_as, record)
    assert response.status_code == 400 and response.json()["field"] == "record.deals[2]"
    assert "(time was up)" in response.json()["error"]
    ok = submit(event, api_as, guandan_record([EW_UP3, NS_UP1], time_called_in_deal=2))
    assert ok.status_code == 201 and ok.json()["outcome"]["end"] == "time"


def test_time_or_deals_match_ends_at_whichever_comes_first(event, api_as):
    play_as(event, {"end": "time_or_deals", "deals": 2})
    response = submit(event, api_as, guandan_record([EW_UP3, NS_UP1, EW_UP1]))
    assert response.status_code == 400 and response.json()["field"] == "record.deals[2]"
    early = submit(event, api_as, guandan_record([EW_UP3], time_called_in_deal=1))
    assert early.status_code == 201 and early.json()["outcome"]["end"] == "time"


def test_best_of_three_refuses_a_third_game_after_two_wins(event, api_as):
    play_as(event, {"end": "deals", "deals": 1, "games": 3})
    two = [{"deals": [NS_UP3]}, {"deals": [NS_UP1]}]
    response = submit(event, api_as, {"game": "guandan", "games": [*two, {"deals": [EW_UP1]}]})
    assert response.status_code == 400 and response.json()["field"] == "record.games[2]"
    assert "already won after game 2" in response.json()["error"]
    ok = submit(event, api_as, {"game": "guandan", "games": two})
    assert ok.status_code == 201
    assert ok.json()["outcome"]["games_won"] == {"EW": 0, "NS": 2}
    assert ok.json()["outcome"]["match_points"] == {"EW": 6, "NS": 14}  # 4 levels summed


def test_a_record_naming_another_format_is_refused(event, api_as):
    play_as(event, {"end": "deals", "deals": 3})
    record = guandan_record([EW_UP3], format={"end": "deals", "deals": 9})
    response = submit(event, api_as, record)
    assert response.status_code == 400 and response.json()["field"] == "record.format"
    assert "3 deals" in response.json()["error"]


def test_without_a_format_records_score_and_store_as_before(event, api_as):
    response = submit(event, api_as, guandan_record([EW_UP3]))
    assert response.status_code == 201
    version = ResultVersion.objects.get(match=event.match)
    assert "format" not in version.record and "over" not in version.outcome
