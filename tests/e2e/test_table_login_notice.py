"""Issue 35, an expired login goes unseen no more (390×844 zh-CN phone): the notice and its
"重新登录" button are at the top of the screen, above the seats, and stay there while the
referee scrolls to the submit button (they were at y = 1088 / 1165, the seats at y = 277)."""

from __future__ import annotations

import pytest

from tests.e2e.test_table_resilience import tap, wait_deals
from tests.factories import SIX_DEALS

pytestmark = pytest.mark.django_db(transaction=True)


def top(page, selector) -> float:
    return page.locator(selector).first.bounding_box()["y"]


def test_an_expired_login_is_said_at_the_top_above_the_seats(table, phone):
    tap(phone, SIX_DEALS[0])
    wait_deals(phone, 1)
    phone.context.clear_cookies()  # the session is gone
    tap(phone, SIX_DEALS[1])
    phone.wait_for_selector("#login-notice:not([hidden])")
    assert "登录已过期" in phone.locator("#login-notice").inner_text()
    assert "重新登录" in phone.locator("#login-top").inner_text()
    phone.evaluate("window.scrollTo(0, 0)")
    seats = top(phone, "button.seat")
    notice, button = top(phone, "#login-notice"), top(phone, "#login-top")
    assert notice < seats and button < seats, (notice, button, seats)
    assert 0 <= notice < 844 and button + 44 <= 844  # on the first screen, no scrolling
    # scrolled to the submit button: the notice is still on screen, at its top
    phone.locator("#submit-result").scroll_into_view_if_needed()
    assert 0 <= top(phone, "#login-notice") < 100
    assert 0 <= top(phone, "#login-top") < 200
    box = phone.locator("#login-top").bounding_box()
    assert box["height"] >= 44  # thumb-sized
    phone.click("#login-top")
    phone.wait_for_selector("input[name=username]")


def test_deals_entered_after_the_login_expired_get_the_phones_levels_marked_provisional(
    table, phone
):
    from tests.e2e.test_table_offline import shown_levels, wait_checked, wait_engine_ready

    wait_engine_ready(phone)
    tap(phone, SIX_DEALS[0])
    wait_deals(phone, 1)
    phone.context.clear_cookies()  # the session is gone; the network is still there
    tap(phone, SIX_DEALS[1])
    wait_checked(phone, 2)  # the phone's engine answered both deals
    phone.wait_for_selector("#login-notice:not([hidden])")
    note = phone.locator("#engine-note")
    assert note.is_visible() and "暂定" in note.inner_text() and "登录已过期" in note.inner_text()
    assert shown_levels(phone) != ("–", "–")
    assert "登录已过期" in phone.locator("#connection").inner_text()  # not "no network"


def test_a_fresh_phone_says_it_is_reading_the_saved_version_not_nothing_yet(table, phone):
    """Issue 35: for 0.7 s a fresh phone said 尚未录入任何一副牌 / 尚未提交 before the saved
    version arrived. The saved version's answer is held here until the page has been read."""
    from tests.factories import actor, guandan_record
    from tournaments.services import result_entry

    result_entry.submit(table.match, guandan_record(SIX_DEALS[:2]), actor(table.referee), 0)
    held = []

    def hold(route):
        if route.request.method == "GET" and not held:
            held.append(route)  # answered below, once the page has been read
        else:
            route.continue_()

    phone.evaluate("localStorage.clear()")  # a fresh phone: nothing kept
    phone.route("**/result/", hold)
    phone.goto(table.url, wait_until="domcontentloaded")
    phone.wait_for_selector("#match-result")
    said = phone.locator("#match-result").inner_text()
    assert "尚未录入" not in said and "正在读取" in said, said
    assert phone.locator("#history-empty").is_hidden()  # not 尚未提交
    for _ in range(100):  # the page asks for the saved version (held)
        if held:
            break
        phone.wait_for_timeout(50)
    assert held
    held[0].continue_()
    wait_saved_deals = "document.querySelectorAll('#deal-list li[data-state=saved]').length === 2"
    phone.wait_for_function(wait_saved_deals)
    assert "正在读取" not in phone.locator("#match-result").inner_text()
