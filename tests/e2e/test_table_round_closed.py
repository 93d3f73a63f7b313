"""Issue 35, states enforced where they are shown: a finalised (locked) round's table page
says so at the top of the phone and takes no entry (it took deals and refused only on
submit). A deal kept on the phone from before the round was finalised stays on screen and is
never sent."""

from __future__ import annotations

import pytest

from tests.e2e.test_table_resilience import tap, versions, wait_deals
from tests.factories import SIX_DEALS

pytestmark = pytest.mark.django_db(transaction=True)


def finalise(table):
    from tournaments.models import Round

    Round.objects.filter(pk=table.match.round_id).update(status=Round.Status.FINALISED)


def test_rule_a_finalised_rounds_table_page_says_so_and_takes_no_entry(table, phone):
    posts = []
    phone.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    tap(phone, SIX_DEALS[0])  # kept on the phone, not submitted
    wait_deals(phone, 1)
    finalise(table)
    phone.reload()
    banner = phone.locator("#round-closed")
    banner.wait_for()
    assert "第 1 轮已定稿" in banner.inner_text() and "此桌不能再录入" in banner.inner_text()
    box = banner.bounding_box()
    assert box["y"] + box["height"] <= 844  # on the first screen of a 390×844 phone
    wait_deals(phone, 1, checked=False)  # the kept deal is still shown
    for selector in (
        "button.seat[data-seat=E]",
        "#submit-result",
        "#undo-deal",
        "button[data-absent=EW]",
        "#result-note",
    ):
        assert phone.locator(selector).is_disabled(), selector
    phone.locator("button.seat[data-seat=E]").dispatch_event("click")  # even a forced tap
    phone.locator("button.seat[data-seat=W]").dispatch_event("click")
    phone.locator("button.seat[data-seat=S]").dispatch_event("click")
    phone.wait_for_timeout(300)
    assert phone.locator("#deal-list li").count() == 1
    phone.evaluate("document.getElementById('submit-result').click()")
    phone.wait_for_timeout(300)
    assert "第 1 轮已定稿" in phone.locator("#submit-status").inner_text()
    assert not [url for url in posts if url.endswith("/result/")]
    assert versions(table) == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_an_open_rounds_table_page_takes_entry_as_before(table, phone):
    assert phone.locator("#round-closed").count() == 0
    assert not phone.locator("button.seat[data-seat=E]").is_disabled()
    tap(phone, SIX_DEALS[0])
    wait_deals(phone, 1)
