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
    page = client.get(f"/t/{event.event.slug}/table/1/", HTTP_ACCEPT_LANGUAGE=lang)
    assert page.status_code == 200
    return page.content.decode()


def script(text, name):
    found = re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', text, re.S)
    return json.loads(html.unescape(found.group(1)))


def play_as(event, fmt):
    event.event.settings = {"match_format": fmt}
    event.event.save(update_fields=["settings"])


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

    event.event.settings = {"match_format": {"end": "deals"}}
    with pytest.raises(ValidationError) as err:
        event.event.full_clean()
    assert "format.deals" in str(err.value)


def test_a_best_of_three_page_names_each_game_with_the_vocabularys_word(event, client):
    play_as(event, {"end": "deals", "deals": 2, "games": 3})
    text = page_of(event, client)
    config, strings = script(text, "table-config"), script(text, "table-strings")
    assert config["format"]["games"] == 3
    assert 'id="games-line"' in text and "三局二胜" in text
    assert strings["game_n"] == "第 %s 局"  # glossary.game_label, one word on every page
    assert strings["next_game"] == "下一副记入%s" and strings["games_won"] == "局分"
    assert config["end_reasons"]["games"] == "一方已胜两局"
    english = script(page_of(event, client, "en"), "table-strings")
    assert english["game_n"] == "Game %s"


def test_a_one_game_page_has_no_games_line(event, client):
    play_as(event, {"end": "deals", "deals": 2})
    assert 'id="games-line"' not in page_of(event, client)


def test_a_knockout_stages_best_of_three_comes_to_the_table_page(event, client):
    from tournaments.models import Stage

    play_as(event, {"end": "deals", "deals": 8})  # the event's format yields to the stage's
    stage = Stage.objects.create(
        event=event.event,
        order=1,
        name="决赛",
        kind="knockout",
        match_format={"end": "pass_a", "games": 3},
    )
    event.round.stage = stage
    event.round.save(update_fields=["stage"])
    text = page_of(event, client)
    fmt = script(text, "table-config")["format"]
    assert fmt["games"] == 3 and fmt["end"] == "pass_a" and fmt["knockout"] is True
    assert 'id="games-line"' in text


def test_the_preview_of_a_best_of_three_says_which_game_is_decided(event, api_as):
    play_as(event, {"end": "deals", "deals": 1, "games": 3})
    url = f"/api/tournaments/{event.event.slug}/matches/{event.match.pk}/preview/"
    one = {"finish": ["E", "W", "S", "N"]}
    record = {"game": "guandan", "games": [{"deals": [one]}, {"deals": []}]}
    answer = api_as(event.referee).post(url, {"record": record}, format="json").json()
    assert answer["games"][0]["over"] is True and answer["games"][0]["winner"] == "EW"
    assert answer["over"] is False and answer["games_won"] == {"EW": 1, "NS": 0}


def test_the_chiefs_correction_of_a_best_of_three_starts_from_its_games(event, client):
    from tests.factories import actor
    from tournaments.services import result_entry

    play_as(event, {"end": "deals", "deals": 1, "games": 3})
    up3, up1 = {"finish": ["E", "W", "S"]}, {"finish": ["N", "E", "W"]}
    games = [{"deals": [up3]}, {"deals": [up1]}, {"deals": [up3]}]
    result_entry.submit(event.match, {"game": "guandan", "games": games}, actor(event.referee), 0)
    client.force_login(event.chief)
    text = client.get(f"/t/{event.event.slug}/results/match/{event.match.pk}/").content.decode()
    reference = script(text, "table-config")["reference"]
    assert reference["deals"] == [up3, up1, up3] and reference["games"] == [0, 1, 2]
    assert reference["outcome"]["games_won"] == {"EW": 2, "NS": 1}


def test_the_match_page_reads_a_best_of_three_game_by_game(event, client):
    from tests.factories import actor
    from tournaments.services import result_entry

    play_as(event, {"end": "deals", "deals": 1, "games": 3})
    up3, up1 = {"finish": ["E", "W", "S"]}, {"finish": ["N", "E", "W"]}
    games = [{"deals": [up3]}, {"deals": [up1]}, {"deals": [up3]}]
    result_entry.submit(event.match, {"game": "guandan", "games": games}, actor(event.referee), 0)
    client.force_login(event.home_captain)  # a captain reads the deals before confirming
    text = client.get(f"/t/{event.event.slug}/results/match/{event.match.pk}/").content.decode()
    deals = re.search(r'id="latest-deals".*?<ol>(.*?)</ol>', text, re.S).group(1)
    assert deals.count("<li>") == 3
    for n in (1, 2, 3):
        assert f'<strong class="game-label">第 {n} 局</strong>' in deals
