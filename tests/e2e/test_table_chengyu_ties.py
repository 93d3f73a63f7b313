"""The idiom-chain table page shows the engine's match-end answer (issue 28; 成语接龙 六):
a tied record is "not over: one more deal", three deals decided end the match."""

from __future__ import annotations

import pytest


def enter(phone, ew: int, count: int) -> None:
    phone.fill("#tricks_ew", str(ew))
    phone.fill("#tricks_ns", str(13 - ew))
    phone.click("#deal-form button[type=submit]")
    phone.wait_for_function(f"document.querySelector('#deal-list').dataset.checked === '{count}'")


@pytest.mark.django_db(transaction=True)
def test_chengyu_6_tied_record_says_one_more_deal_and_three_deals_end_the_match(table, phone):
    table.event.game, table.event.preset = "chengyu", "chengyu"
    table.event.save()
    phone.goto(table.url)
    enter(phone, 7, 1)
    enter(phone, 6, 2)  # 7:6, 6:7: tied on deals and tricks
    result = phone.locator("#match-result").inner_text()
    assert "比赛未结束：再打一副" in result and "平局" not in result
    assert phone.locator("#match-over").is_hidden()
    assert not phone.locator("#deal-form button[type=submit]").first.is_disabled()
    enter(phone, 8, 3)  # the third deal decides
    phone.wait_for_selector("#match-over:not([hidden])")
    assert phone.locator("#match-over").inner_text() == "比赛已结束：已打满规定副数"
    assert "再打一副" not in phone.locator("#match-result").inner_text()
