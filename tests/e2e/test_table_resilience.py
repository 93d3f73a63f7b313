"""The table page never loses a deal: offline entry, reload, a lost answer, an expired login,
a double tap, a revoked link, a server error. Each test checks the database afterwards."""

from __future__ import annotations

import pytest

from tests.factories import SIX_DEALS, build_event

SEVEN_DEALS = [*SIX_DEALS, {"finish": ["S", "W", "N", "E"]}]

pytestmark = pytest.mark.django_db(transaction=True)


def tap(page, deal):
    for seat in deal["finish"][:3]:
        page.click(f"button.seat[data-seat={seat}]")


def wait_deals(page, n, checked=True):
    condition = f"document.querySelectorAll('#deal-list li').length === {n}"
    if checked:
        condition += f" && document.querySelector('#deal-list').dataset.checked === '{n}'"
    page.wait_for_function(condition)


def wait_saved(page, n):
    page.wait_for_function(
        f"document.querySelectorAll('#deal-list li[data-state=saved]').length === {n}"
    )


def versions(event):
    from tournaments.models import ResultVersion

    return list(ResultVersion.objects.filter(match=event.match).order_by("number"))


def test_offline_entry_goes_on_and_one_version_holds_all_seven_deals(table, phone):
    for i, deal in enumerate(SEVEN_DEALS[:5]):
        tap(phone, deal)
        wait_deals(phone, i + 1)
    phone.context.set_offline(True)
    for deal in SEVEN_DEALS[5:]:
        tap(phone, deal)
    wait_deals(phone, 7, checked=False)
    phone.wait_for_selector("#connection.error")
    assert "网络中断" in phone.locator("#connection").inner_text()
    assert "7" in phone.locator("#connection").inner_text()
    assert phone.locator("#deal-list li[data-state=local]").count() == 7
    phone.context.set_offline(False)
    wait_deals(phone, 7)  # checked by the server's engine once the network is back
    phone.click("#submit-result")
    wait_saved(phone, 7)
    stored = versions(table)
    assert len(stored) == 1
    assert stored[0].record["deals"] == [{"finish": d["finish"][:3]} for d in SEVEN_DEALS]
    assert "第 1 版" in phone.locator("#deal-list li").first.inner_text()


def test_a_reload_keeps_the_deals_and_a_cleared_phone_resumes_from_the_saved_version(table, phone):
    for i, deal in enumerate(SIX_DEALS[:4]):
        tap(phone, deal)
        wait_deals(phone, i + 1)
    phone.reload()
    wait_deals(phone, 4)
    assert phone.locator("#deal-list li[data-state=local]").count() == 4
    phone.click("#submit-result")
    wait_saved(phone, 4)
    assert [len(v.record["deals"]) for v in versions(table)] == [4]
    # another phone (nothing kept locally) opens the table: it resumes from version 1
    phone.evaluate("localStorage.clear()")
    phone.reload()
    wait_saved(phone, 4)
    assert phone.locator("#submit-result").is_disabled()  # nothing new to save
    tap(phone, SIX_DEALS[4])
    wait_deals(phone, 5)
    phone.click("#submit-result")
    wait_saved(phone, 5)
    assert [len(v.record["deals"]) for v in versions(table)] == [4, 5]


def test_a_lost_answer_is_retried_with_the_same_key_and_stays_one_version(table, phone):
    for i, deal in enumerate(SIX_DEALS[:4]):
        tap(phone, deal)
        wait_deals(phone, i + 1)
    seen = []

    def lose_the_first_answer(route):
        request = route.request
        if request.method != "POST":
            route.continue_()
            return
        seen.append(request.headers.get("idempotency-key"))
        if len(seen) == 1:
            route.fetch()  # the server stores the version ...
            route.abort()  # ... but its answer never reaches the phone
        else:
            route.continue_()

    phone.route("**/result/", lose_the_first_answer)
    phone.click("#submit-result")
    wait_saved(phone, 4)  # retried automatically, answered with the stored version
    stored = versions(table)
    assert len(stored) == 1 and len(stored[0].record["deals"]) == 4
    assert len(seen) >= 2 and len(set(seen)) == 1 and seen[0]
    assert str(stored[0].idempotency_key) == seen[0]
    assert "第 1 版" in phone.locator("#deal-list li").first.inner_text()


def test_a_server_error_keeps_the_submission_and_it_is_sent_again(table, phone):
    for i, deal in enumerate(SIX_DEALS[:2]):
        tap(phone, deal)
        wait_deals(phone, i + 1)
    calls = []

    def fail_once(route):
        if route.request.method == "POST" and not calls:
            calls.append(1)
            route.fulfill(status=502, body="Bad gateway")
        else:
            route.continue_()

    phone.route("**/result/", fail_once)
    phone.click("#submit-result")
    phone.wait_for_selector("#connection.error")
    assert phone.locator("#deal-list li").count() == 2
    wait_saved(phone, 2)
    assert len(versions(table)) == 1


def test_an_expired_login_says_so_and_after_logging_in_the_deals_are_still_there(table, phone):
    for i, deal in enumerate(SIX_DEALS[:3]):
        tap(phone, deal)
        wait_deals(phone, i + 1)
    phone.context.clear_cookies()  # the session is gone
    tap(phone, SIX_DEALS[3])
    phone.wait_for_selector("#login-again:not([hidden])")
    assert "登录已过期" in phone.locator("#connection").inner_text()
    assert phone.locator("#deal-list li").count() == 4
    phone.click("#login-link")
    phone.fill("input[name=username]", table.referee.username)
    phone.fill("input[name=password]", "pw-" + table.referee.username)
    phone.click("main button[type=submit]")
    phone.wait_for_url(table.url)
    wait_deals(phone, 4)
    phone.click("#submit-result")
    wait_saved(phone, 4)
    stored = versions(table)
    assert len(stored) == 1 and len(stored[0].record["deals"]) == 4
    assert stored[0].created_by == table.referee


def test_a_double_tap_on_submit_stores_one_version(table, phone):
    for i, deal in enumerate(SIX_DEALS[:2]):
        tap(phone, deal)
        wait_deals(phone, i + 1)
    phone.dblclick("#submit-result")
    phone.evaluate("() => { const b = document.querySelector('#submit-result'); b.click(); }")
    wait_saved(phone, 2)
    phone.wait_for_timeout(500)
    assert len(versions(table)) == 1


def test_a_revoked_table_link_keeps_the_deals_and_says_why(
    live_server, phone, make_event, make_user, grant
):
    from tournaments.services import table_keys

    event = build_event(make_event, make_user, grant)
    key = table_keys.issue(event.event, 1, event.chief, referee=event.referee)
    phone.goto(f"{live_server.url}/table/{key.key}/")
    for i, deal in enumerate(SIX_DEALS[:2]):
        tap(phone, deal)
        wait_deals(phone, i + 1)
    table_keys.revoke(key, event.chief)
    phone.click("#submit-result")
    phone.wait_for_function("document.querySelector('#connection').textContent.includes('收回')")
    assert phone.locator("#deal-list li").count() == 2
    phone.reload()  # the revoked link still shows what the phone kept
    wait_deals(phone, 2, checked=False)
    assert "收回" in phone.locator("#connection").inner_text()
    assert versions(event) == []


def test_a_tab_closed_before_the_answer_sends_the_same_submission_when_reopened(table, phone):
    for i, deal in enumerate(SIX_DEALS[:3]):
        tap(phone, deal)
        wait_deals(phone, i + 1)
    keys = []

    def store_then_lose(route):
        if route.request.method == "POST":
            keys.append(route.request.headers.get("idempotency-key"))
            route.fetch()
            route.abort()
        else:
            route.continue_()

    phone.route("**/result/", store_then_lose)
    phone.click("#submit-result")
    phone.wait_for_selector("#connection.error")
    context = phone.context
    phone.close()  # the tab is closed before any retry
    page = context.new_page()
    from tests.e2e.conftest import watch_csp

    violations = watch_csp(page)

    def count_keys(request):
        if request.method == "POST" and request.url.endswith("/result/"):
            keys.append(request.headers.get("idempotency-key"))

    page.on("request", count_keys)
    page.goto(table.url)
    wait_saved(page, 3)
    assert len(versions(table)) == 1
    assert len(keys) >= 2 and len(set(keys)) == 1
    assert violations == []


def test_a_reload_while_offline_loses_nothing_once_the_page_opens_again(table, phone):
    for i, deal in enumerate(SIX_DEALS[:2]):
        tap(phone, deal)
        wait_deals(phone, i + 1)
    phone.context.set_offline(True)
    tap(phone, SIX_DEALS[2])
    wait_deals(phone, 3, checked=False)
    from playwright.sync_api import Error as BrowserError

    try:  # the page opens offline once the service worker keeps it (test_table_offline.py)
        phone.reload()
    except BrowserError:
        pass  # not kept yet: the browser's own error page, and nothing is lost either
    phone.context.set_offline(False)
    phone.goto(table.url)
    wait_deals(phone, 3)
    phone.click("#submit-result")
    wait_saved(phone, 3)
    assert len(versions(table)) == 1


def test_a_failing_check_keeps_the_deals_and_the_page_speaks_english_when_asked(table, phone):
    phone.context.add_cookies([{"name": "django_language", "value": "en", "url": table.url}])
    phone.goto(table.url)
    calls = []

    def fail_twice(route):
        calls.append(1)
        if len(calls) <= 2:
            route.fulfill(status=500, body="oops")
        else:
            route.continue_()

    phone.route("**/preview/", fail_twice)
    tap(phone, SIX_DEALS[0])
    phone.wait_for_selector("#connection.error")
    assert "The server does not answer" in phone.locator("#connection").inner_text()
    assert phone.locator("#deal-list li[data-state=local]").count() == 1
    wait_deals(phone, 1)  # checked once the server answers again (automatic retry)
    assert phone.locator("#levels-ew").inner_text() == "5"


def test_a_forfeit_from_the_page_is_one_version_even_when_tapped_twice(table, phone):
    phone.on("dialog", lambda dialog: dialog.accept())
    phone.click("#entry details:last-of-type summary")
    phone.evaluate(
        "() => { const b = document.querySelector('button[data-absent=NS]'); b.click(); b.click(); }"
    )
    phone.wait_for_function("document.querySelectorAll('#history li').length === 1")
    phone.wait_for_timeout(500)
    stored = versions(table)
    assert len(stored) == 1 and stored[0].record["forfeit"] == "NS"
    assert stored[0].idempotency_key is not None
