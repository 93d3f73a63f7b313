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
