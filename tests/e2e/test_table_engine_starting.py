"""Issue 35, offline in the first seconds (390×844 zh-CN phone): the network goes right after
the table page has loaded, while the phone's rules engine is still starting. A deal entered
then says "正在启动计分引擎…" until the engine answers, then shows its levels; when the engine
cannot start (a first visit: nothing kept on the phone) the deal says so, with what to do."""

from __future__ import annotations

import pytest

from rules_engine import api as rules_api
from tests.e2e.test_table_offline import EW_UP, shown_levels, tap, wait_checked
from tests.factories import build_event

pytestmark = pytest.mark.django_db(transaction=True)

STARTING = "正在启动计分引擎…"

# every text an .engine-wait mark ever held on the page (the mark may be short-lived)
WATCH = """() => {
  window.engineWords = [];
  new MutationObserver(function () {
    document.querySelectorAll('#deal-list .engine-wait').forEach(function (el) {
      if (window.engineWords.indexOf(el.textContent.trim()) < 0) {
        window.engineWords.push(el.textContent.trim());
      }
    });
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def open_then_offline_at_once(phone, url):
    phone.goto(url, wait_until="load")
    phone.context.set_offline(True)
    phone.evaluate(WATCH)


def test_the_deal_says_the_engine_is_starting_then_shows_its_levels(
    live_server, phone, login, make_event, make_user, grant
):
    event = build_event(make_event, make_user, grant)
    login(phone, live_server, event.referee)
    url = f"{live_server.url}/t/{event.event.slug}/table/1/"
    phone.goto(url)  # one online visit: the phone keeps the page and its engine
    phone.wait_for_function("window.paisaiTable.offlineKept === true", timeout=60_000)
    phone.wait_for_function("window.paisaiTable.engine.snapshotKept !== null", timeout=120_000)
    open_then_offline_at_once(phone, url)  # the next load: offline while the engine starts
    assert phone.evaluate("window.paisaiTable.engine.status()") != "ready"
    tap(phone, EW_UP)
    wait_checked(phone, 1, timeout=60_000)  # the phone's engine answered
    assert STARTING in phone.evaluate("window.engineWords"), phone.evaluate("window.engineWords")
    deal = phone.locator("#deal-list li").first
    assert STARTING not in deal.inner_text() and deal.locator(".engine-wait").count() == 0
    expected = rules_api.score({"game": "guandan", "preset": event.event.preset, "deals": [EW_UP]})
    assert shown_levels(phone) == (expected["levels"]["EW"], expected["levels"]["NS"])
    assert "→" in deal.inner_text()  # the deal's levels after it
    assert "暂定" in phone.locator("#engine-note").inner_text()


def test_an_engine_that_cannot_start_is_said_on_the_deal_with_what_to_do(
    live_server, phone, login, make_event, make_user, grant
):
    event = build_event(make_event, make_user, grant)
    login(phone, live_server, event.referee)
    # a first visit: nothing of the engine is kept on this phone yet
    open_then_offline_at_once(phone, f"{live_server.url}/t/{event.event.slug}/table/1/")
    tap(phone, EW_UP)
    deal = phone.locator("#deal-list li").first
    phone.wait_for_function(
        "(document.querySelector('#deal-list .engine-wait') || {textContent: ''})"
        ".textContent.includes('无法启动')",
        timeout=60_000,
    )
    said = deal.inner_text()
    assert "恢复网络" in said and "保存在本机" in said, said
    assert STARTING in phone.evaluate("window.engineWords")
    assert "无法启动" in phone.locator("#engine-note").inner_text()
    # back online: the server's levels, and the word is gone
    phone.context.set_offline(False)
    phone.evaluate("window.dispatchEvent(new Event('online'))")
    wait_checked(phone, 1, timeout=30_000)
    phone.wait_for_function("!document.querySelector('#deal-list .engine-wait')")
    assert "→" in deal.inner_text()
