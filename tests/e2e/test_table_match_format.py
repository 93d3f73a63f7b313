"""The table page under an N-deals match format: after the last deal the page says
"比赛已结束：…" and takes no further tap; the server would refuse one anyway."""

from __future__ import annotations

import pytest

EW_UP3 = ["E", "W", "S"]
NS_UP1 = ["N", "E", "W"]


@pytest.mark.django_db(transaction=True)
def test_page_says_the_match_is_over_before_a_further_deal(table, phone):
    table.event.settings = {"match_format": {"end": "deals", "deals": 2}}
    table.event.save(update_fields=["settings"])
    phone.goto(table.url)
    assert "计副制 2 副" in phone.locator("#match-format").inner_text()
    for n, finish in enumerate((EW_UP3, NS_UP1), 1):
        for seat in finish:
            phone.click(f"button.seat[data-seat={seat}]")
        phone.wait_for_function(f"document.querySelector('#deal-list').dataset.checked === '{n}'")
    phone.wait_for_selector("#match-over:not([hidden])")
    assert phone.locator("#match-over").inner_text() == "比赛已结束：已打满规定副数"
    assert phone.locator("button.seat[data-seat=E]").is_disabled()  # no further tap
    assert phone.locator("#deal-list li").count() == 2
    assert not phone.locator("#submit-result").is_disabled()
    phone.click("#undo-deal")  # one deal less: the match goes on again
    phone.wait_for_function("document.querySelector('#deal-list').dataset.checked === '1'")
    assert phone.locator("#match-over").is_hidden()
    assert not phone.locator("button.seat[data-seat=E]").is_disabled()
