"""Issue 24, the result path says what happened (390×844 zh-CN phone): a refusal or a failure
is said beside the button that sent it, with what to do; a request with no answer is given up
after 12 s and sent again with the same Idempotency-Key (one version stored); a best of three
is entered as final levels per game; the chief corrects a final-levels result and changes one
deal of nine in place (the deals after it stay, their new levels shown old → new); a
match-level refusal is said on the scoreboard, never on a deal. Each test asserts the
database."""

from __future__ import annotations

import json
import time

import pytest

from tests.e2e.test_table_resilience import tap, versions, wait_deals, wait_saved
from tests.factories import SIX_DEALS, actor

pytestmark = pytest.mark.django_db(transaction=True)

EW_UP1 = {"finish": ["E", "N", "S", "W"]}
NS_UP1 = {"finish": ["N", "E", "W", "S"]}
EW_UP3 = {"finish": ["E", "W", "S", "N"]}
NINE = [EW_UP1, NS_UP1] * 4 + [EW_UP1]  # nobody reaches A: EW 7, NS 6 after nine deals


def below(page, first, second) -> float:
    """How far (px) the top of ``second`` is below the bottom of ``first``."""
    a = page.locator(first).bounding_box()
    b = page.locator(second).bounding_box()
    return b["y"] - (a["y"] + a["height"])


def final_levels(ew, ns, passed_a=None):
    return {"game": "guandan", "final_levels": {"EW": ew, "NS": ns}, "passed_a": passed_a}


def test_rule_a_409_on_the_final_levels_is_said_beside_the_button_not_saved(table, phone):
    from tournaments.services import result_entry

    phone.click("#final-levels summary")
    phone.select_option("#final_ew", "9")
    phone.select_option("#final_ns", "7")
    phone.wait_for_function(
        "document.querySelector('#match-result').textContent.includes('12 : 8')"
    )
    # meanwhile the second referee of table 1 saves version 1 from another phone
    result_entry.submit(table.match, final_levels("9", "2"), actor(table.referee2), 0)
    phone.click("#submit-final")
    phone.wait_for_selector("#final-status.error")
    said = phone.locator("#final-status").inner_text()
    assert "未保存" in said and "第 1 版" in said, said
    assert "已经保存" not in said  # not the "already my own save" words
    assert 0 <= below(phone, "#submit-final", "#final-status") < 60  # beside the button
    assert phone.locator("#conflict").is_visible()
    assert "9 : 南北 2" in phone.locator("#conflict-theirs").inner_text()
    assert "9 : 南北 7" in phone.locator("#conflict-mine").inner_text()
    stored = versions(table)
    assert len(stored) == 1 and stored[0].record["final_levels"] == {"EW": "9", "NS": "2"}


def test_rule_a_409_on_the_deals_is_said_beside_the_submit_button(table, phone):
    from tournaments.services import result_entry

    tap(phone, SIX_DEALS[0])
    wait_deals(phone, 1)
    result_entry.submit(table.match, final_levels("9", "2"), actor(table.referee2), 0)
    phone.click("#submit-result")
    phone.wait_for_selector("#submit-status.error")
    assert "未保存" in phone.locator("#submit-status").inner_text()
    # the save status is beside the button, not ~950 px above it
    assert 0 <= below(phone, "#submit-result", "#submit-status") < 60
    assert 0 <= below(phone, "#submit-status", "#connection") < 60
    assert len(versions(table)) == 1


def test_rule_a_403_and_a_5xx_are_said_beside_the_button_with_what_to_do(table, phone):
    tap(phone, SIX_DEALS[0])
    wait_deals(phone, 1)
    answers = [
        (403, {"error": "您不能在这张桌录入成绩。", "field": "table", "code": "forbidden"}),
        (502, None),
    ]

    def answer(route):
        if route.request.method == "POST" and answers:
            status, body = answers.pop(0)
            route.fulfill(
                status=status,
                body=json.dumps(body) if body else "Bad gateway",
                content_type="application/json" if body else "text/plain",
            )
        else:
            route.continue_()

    phone.route("**/result/", answer)
    phone.click("#submit-result")
    phone.wait_for_selector("#submit-status.error")
    said = phone.locator("#submit-status").inner_text()
    assert "未保存" in said and "不能在这张桌" in said and "裁判长" in said
    phone.click("#submit-result")  # a new try: the server fails (502), the page says so
    phone.wait_for_function(
        "document.querySelector('#submit-status').textContent.includes('服务器出错（错误 502）')"
    )
    wait_saved(phone, 1)  # sent again by itself with the same key
    assert len(versions(table)) == 1


def test_rule_no_answer_in_12_s_is_said_and_retried_with_the_same_key_one_version(table, phone):
    for i, deal in enumerate(SIX_DEALS[:3]):
        tap(phone, deal)
        wait_deals(phone, i + 1)
    keys, held = [], []

    def store_and_never_answer(route):
        if route.request.method != "POST":
            route.continue_()
            return
        keys.append(route.request.headers.get("idempotency-key"))
        if len(keys) == 1:
            route.fetch()  # the server stores version 1 ...
            held.append(route)  # ... and its answer never comes back
        else:
            route.continue_()

    phone.route("**/result/", store_and_never_answer)
    start = time.monotonic()
    phone.click("#submit-result")
    phone.wait_for_selector("#submit-status.warn")
    assert "正在保存" in phone.locator("#submit-status").inner_text()
    phone.wait_for_function(
        "document.querySelector('#submit-status').textContent.includes('秒内没有应答')",
        timeout=25_000,
    )
    waited = time.monotonic() - start
    # given up after 12 s (the phone's clock), not "saving…" for ever; the upper bound leaves
    # room for a loaded test machine
    assert 11 <= waited <= 20, waited
    assert "不会重复保存" in phone.locator("#submit-status").inner_text()
    wait_saved(phone, 3)  # sent again after 2 s with the same key: the stored version answers
    assert "第 1 版" in phone.locator("#submit-status").inner_text()
    stored = versions(table)
    assert len(stored) == 1 and len(stored[0].record["deals"]) == 3
    assert len(keys) == 2 and keys[0] == keys[1] == str(stored[0].idempotency_key)


def test_rule_best_of_three_2_1_entered_as_final_levels_per_game(table, phone, capsys):
    from tournaments.models import ResultVersion

    table.event.settings = {"match_format": {"end": "pass_a", "games": 3}}
    table.event.save(update_fields=["settings"])
    phone.goto(table.url)
    phone.wait_for_selector("#connection.ok")
    taps = 0
    start = time.monotonic()
    phone.click("#final-levels summary")
    taps += 1
    for n, (ew, ns) in enumerate([("9", "4"), ("3", "8"), ("K", "5")], start=1):
        suffix = "" if n == 1 else f"_{n}"
        phone.select_option(f"#final_ew{suffix}", ew)
        phone.select_option(f"#final_ns{suffix}", ns)
        taps += 4  # on a phone each choice is two taps: open the list, pick the level
    phone.wait_for_function(
        "document.querySelector('#final-summary').textContent.includes('局分 2 : 1')"
    )
    phone.click("#submit-final")
    taps += 1
    phone.wait_for_selector("#final-status.ok")
    seconds = time.monotonic() - start
    version = ResultVersion.objects.get(match=table.match)
    assert [g["final_levels"] for g in version.record["games"]] == [
        {"EW": "9", "NS": "4"},
        {"EW": "3", "NS": "8"},
        {"EW": "K", "NS": "5"},
    ]
    assert version.outcome["games_won"] == {"EW": 2, "NS": 1}
    assert version.outcome["winner"] == "EW"
    # the scoreboard shows what is stored, not "– –" / "尚未录入任何一副牌"
    phone.wait_for_function("document.querySelector('#levels-ew').textContent === 'K'")
    result = phone.locator("#match-result").inner_text()
    assert "第 1 版已保存" in result and "局分 2 : 1" in result, result
    assert "尚未录入" not in result
    phone.reload()  # and still after a reload
    phone.wait_for_function("document.querySelector('#levels-ew').textContent === 'K'")
    assert phone.locator("#levels-ns").inner_text() == "5"
    with capsys.disabled():
        print(f"\n[issue 24] best of three 2:1 by final levels: {taps} taps, {seconds:.1f} s")
    assert taps == 14


def test_rule_the_chief_corrects_a_final_levels_result_9_2_to_9_4(
    live_server, phone, login, make_event, make_user, grant
):
    from tests.factories import build_event
    from tournaments.models import ResultVersion
    from tournaments.services import result_entry

    event = build_event(make_event, make_user, grant)
    result_entry.submit(event.match, final_levels("9", "2"), actor(event.chief), 0, confirm=True)
    login(phone, live_server, event.chief)
    phone.goto(f"{live_server.url}/t/{event.event.slug}/results/match/{event.match.pk}/")
    phone.wait_for_selector("#final-levels[open]")
    assert phone.locator("#final_ew").input_value() == "9"
    assert phone.locator("#final_ns").input_value() == "2"
    summary = phone.locator("#diff-summary").inner_text()
    assert "尚无改动" not in summary and "与第 1 版相同：请先修改" in summary, summary
    assert phone.locator("#levels-ew").inner_text() == "9"  # the stored result on the board
    phone.select_option("#final_ns", "4")
    phone.wait_for_function("document.querySelector('#diff-summary').textContent.includes('→')")
    assert "南北 2 → " in phone.locator("#diff-summary").inner_text()
    phone.fill("#result-note", "南北实为 4")
    with phone.expect_navigation():
        phone.click("#submit-final")
    correction = ResultVersion.objects.get(match=event.match, number=2)
    assert correction.kind == "correction" and correction.is_counting
    assert correction.record["final_levels"] == {"EW": "9", "NS": "4"}
    assert correction.note == "南北实为 4"
    assert correction.via == "web"  # the match page's correction, not "app" (issue 35)


def test_rule_the_chief_changes_deal_7_of_9_and_deals_8_and_9_stay(
    live_server, phone, login, make_event, make_user, grant
):
    from tests.factories import build_event, guandan_record
    from tournaments.models import ResultVersion
    from tournaments.services import result_entry

    event = build_event(make_event, make_user, grant)
    result_entry.submit(event.match, guandan_record(NINE), actor(event.chief), 0, confirm=True)
    login(phone, live_server, event.chief)
    phone.goto(f"{live_server.url}/t/{event.event.slug}/results/match/{event.match.pk}/")
    wait_deals(phone, 9)
    phone.locator("#deal-list li").nth(6).locator(".edit-deal").click()
    assert "第 7 副" in phone.locator("#editing").inner_text()
    tap(phone, EW_UP3)  # deal 7 was E N S W (EW +1); it was E W S N (EW double up, +3)
    phone.wait_for_function(  # the engine's answer for the changed deals is in
        "document.querySelectorAll('#deal-list li[data-levels=changed]').length === 3"
    )
    items = phone.locator("#deal-list li")
    assert "已改" in items.nth(6).inner_text()
    for n in (7, 8):  # deals 8 and 9 are kept; their levels now differ, shown old → new
        assert items.nth(n).get_attribute("data-levels") == "changed"
        assert "级数有变" in items.nth(n).inner_text()
    assert "东西 6 · 南北 6 → 东西 8 · 南北 6" in items.nth(7).inner_text()
    summary = phone.locator("#diff-summary").inner_text()
    assert "改了 1 副" in summary and "其后有 2 副的级数随之改变" in summary, summary
    phone.fill("#result-note", "第 7 副东西双上")
    with phone.expect_navigation():
        phone.click("#submit-result")
    correction = ResultVersion.objects.get(match=event.match, number=2)
    deals = correction.record["deals"]
    assert len(deals) == 9 and deals[6] == {"finish": ["E", "W", "S"]}
    first = ResultVersion.objects.get(match=event.match, number=1)
    assert deals[7:] == first.record["deals"][7:] and deals[:6] == first.record["deals"][:6]
    assert correction.outcome["levels"]["EW"] == "9"


def test_rule_a_match_level_refusal_is_said_on_the_scoreboard_not_on_a_deal(table, phone):
    tap(phone, SIX_DEALS[0])
    wait_deals(phone, 1)
    refusal = {
        "error": "淘汰赛必须分出胜负：比赛尚未结束。",
        "field": "record",
        "code": "match_not_over",
    }

    def refuse(route):
        if route.request.method == "POST":
            route.fulfill(status=400, body=json.dumps(refusal), content_type="application/json")
        else:
            route.continue_()

    phone.route("**/result/", refuse)
    phone.click("#submit-result")
    phone.wait_for_selector("#match-refusal:not([hidden])")
    assert "比赛尚未结束" in phone.locator("#match-refusal").inner_text()
    assert "比赛尚未结束" in phone.locator("#submit-status").inner_text()
    assert phone.locator("#deal-list li[data-state=refused]").count() == 0
    assert phone.locator("#deal-list .remove-deal").count() == 0
    assert versions(table) == []


def test_rule_the_referee_changes_a_saved_deal_in_place_seeing_old_and_new_levels(table, phone):
    from tests.factories import guandan_record
    from tournaments.services import result_entry

    result_entry.submit(table.match, guandan_record(NINE), actor(table.referee), 0)
    phone.goto(table.url)
    wait_saved(phone, 9)  # resumed from version 1
    phone.locator("#deal-list li").nth(6).locator(".edit-deal").click()
    assert phone.locator("#editing").is_visible()
    tap(phone, EW_UP3)
    phone.wait_for_function(
        "document.querySelectorAll('#deal-list li[data-levels=changed]').length === 3"
    )
    items = phone.locator("#deal-list li")
    assert items.count() == 9 and phone.locator("#editing").is_hidden()
    assert "东西 6 · 南北 6 → 东西 8 · 南北 6" in items.nth(7).inner_text()
    assert items.nth(8).get_attribute("data-state") == "saved"  # kept, not undone
    phone.click("#submit-result")
    wait_saved(phone, 9)
    stored = versions(table)
    assert len(stored) == 2
    assert stored[1].record["deals"][6] == {"finish": ["E", "W", "S"]}
    assert stored[1].record["deals"][7:] == stored[0].record["deals"][7:]
    assert phone.locator("#deal-list li[data-levels=changed]").count() == 0  # saved: new base
