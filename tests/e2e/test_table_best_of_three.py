"""Best of three (三局二胜) on the table page: deals are entered per game (第 1 局 …), the
engine's answer says when a game and the match are decided, game 3 is offered only at one
game each, and the network may drop in the middle: the deals entered offline are kept on the
phone and, once the engine checks them, go into the game it says they belong to."""

from __future__ import annotations

import pytest

from tests.e2e.test_table_resilience import versions, wait_deals, wait_saved

pytestmark = pytest.mark.django_db(transaction=True)

# two deals a game: a side up 3 then the other up 1 wins the game on levels
EW_UP3, EW_UP1 = ["E", "W", "S"], ["E", "N", "S"]
NS_UP3, NS_UP1 = ["N", "S", "E"], ["N", "E", "W"]
GAMES = [[EW_UP3, NS_UP1], [NS_UP3, NS_UP1], [EW_UP3, EW_UP1]]  # EW, NS, EW: 2:1 to EW


def tap(page, finish):
    for seat in finish:
        page.click(f"button.seat[data-seat={seat}]")


def next_game(page):
    return page.locator("#games-line").get_attribute("data-next")


def test_best_of_three_entered_2_1_with_the_network_dropping_between_games(table, phone):
    from tests.factories import actor
    from tournaments.models import ResultVersion
    from tournaments.services import result_confirm

    table.event.settings = {"match_format": {"end": "deals", "deals": 2, "games": 3}}
    table.event.save(update_fields=["settings"])
    phone.goto(table.url)
    assert "三局二胜" in phone.locator("#match-format").inner_text()

    tap(phone, GAMES[0][0])
    wait_deals(phone, 1)
    assert next_game(phone) == "1"
    tap(phone, GAMES[0][1])
    wait_deals(phone, 2)  # the engine: game 1 is over, won by East–West
    assert next_game(phone) == "2"
    assert "第 1 局 " + table.teams[0].name + " 获胜" in phone.locator("#games-line").inner_text()
    assert "局分 1 : 0" in phone.locator("#match-result").inner_text()

    # the network drops: game 2's deals and game 3's first are kept on the phone, unchecked
    tap(phone, GAMES[1][0])
    wait_deals(phone, 3)
    phone.context.set_offline(True)
    tap(phone, GAMES[1][1])
    tap(phone, GAMES[2][0])
    wait_deals(phone, 5, checked=False)
    phone.wait_for_selector("#connection.error")
    assert phone.locator("#deal-list li[data-state=local]").count() == 5
    phone.context.set_offline(False)
    # back: the engine says game 2 was over after its second deal, so the fifth deal is game 3's
    wait_deals(phone, 5)
    games = phone.locator("#deal-list li").evaluate_all("els => els.map(e => e.dataset.game)")
    assert games == ["1", "1", "2", "2", "3"]
    assert "第 3 局" in phone.locator("#deal-list li").nth(4).inner_text()
    assert "局分 1 : 1" in phone.locator("#match-result").inner_text()

    tap(phone, GAMES[2][1])
    wait_deals(phone, 6)
    phone.wait_for_selector("#match-over:not([hidden])")
    assert phone.locator("#match-over").inner_text() == "比赛已结束：一方已胜两局"
    assert phone.locator("button.seat[data-seat=E]").is_disabled()  # no tap after the end
    phone.click("#submit-result")
    wait_saved(phone, 6)

    stored = versions(table)
    assert len(stored) == 1
    record = stored[0].record
    assert [[d["finish"] for d in game["deals"]] for game in record["games"]] == GAMES
    assert record["format"]["games"] == 3 and "deals" not in record
    for captain in (table.home_captain, table.away_captain):
        result_confirm.confirm(table.match, 1, actor(captain))
    counting = ResultVersion.objects.get(match=table.match, is_counting=True)
    assert counting.outcome["winner"] == "EW"
    assert counting.outcome["games_won"] == {"EW": 2, "NS": 1}


def test_a_reload_resumes_a_best_of_three_from_the_stored_versions_games(table, phone):
    from tests.factories import actor
    from tournaments.services import result_entry

    table.event.settings = {"match_format": {"end": "deals", "deals": 2, "games": 3}}
    table.event.save(update_fields=["settings"])
    two = [{"deals": [{"finish": f} for f in game]} for game in GAMES[:2]]
    result_entry.submit(table.match, {"game": "guandan", "games": two}, actor(table.referee), 0)
    phone.goto(table.url)  # nothing kept on this phone: it resumes from version 1
    wait_saved(phone, 4)
    games = phone.locator("#deal-list li").evaluate_all("els => els.map(e => e.dataset.game)")
    assert games == ["1", "1", "2", "2"]
    assert next_game(phone) == "3"  # one game each: the third game is offered
    tap(phone, GAMES[2][0])
    wait_deals(phone, 5)
    assert phone.locator("#deal-list li").nth(4).get_attribute("data-game") == "3"
    phone.click("#submit-result")
    wait_saved(phone, 5)
    assert [len(g["deals"]) for g in versions(table)[-1].record["games"]] == [2, 2, 1]


def test_a_timed_best_of_three_keeps_each_games_own_time_call(table, phone):
    table.event.settings = {"match_format": {"end": "time", "games": 3}}
    table.event.save(update_fields=["settings"])
    phone.goto(table.url)
    for n, finish in enumerate((EW_UP3, NS_UP3, EW_UP3), 1):
        assert phone.locator("#time-called").is_hidden()  # a new game: its clock not called
        phone.click("#time-call")  # time is up during this game's first deal
        assert f"第 {n} 局" in phone.locator("#time-called").inner_text()
        tap(phone, finish)
        wait_deals(phone, n)  # the engine: the game ended with the deal in play at time
    phone.wait_for_selector("#match-over:not([hidden])")
    phone.click("#submit-result")
    wait_saved(phone, 3)
    record = versions(table)[0].record
    assert [game["time_called_in_deal"] for game in record["games"]] == [1, 1, 1]
    assert versions(table)[0].outcome["games_won"] == {"EW": 2, "NS": 1}


def test_best_of_three_at_one_game_each_the_page_asks_for_game_3_not_one_more_deal(table, phone):
    # issue 35: at 1:1 in games the page (and a knockout's refusal) said "one more deal"
    from tests.factories import actor
    from tournaments.services import result_entry

    table.event.settings = {"match_format": {"end": "deals", "deals": 2, "games": 3}}
    table.event.save(update_fields=["settings"])
    two = [{"deals": [{"finish": f} for f in game]} for game in GAMES[:2]]
    result_entry.submit(table.match, {"game": "guandan", "games": two}, actor(table.referee), 0)
    phone.goto(table.url)
    wait_saved(phone, 4)
    phone.wait_for_function(
        "document.getElementById('match-result').textContent.includes('局分 1 : 1')"
    )
    result = phone.locator("#match-result").inner_text()
    assert "比赛未结束：请打第 3 局" in result, result
    assert "再打一副" not in result
