"""The table page with no network at all (SPEC 2, the table referee; issue: the table page
offline): after one online visit it opens offline with the kept deals, the phone's own rules
engine (the server's rules_engine in Pyodide) gives the levels after each deal and refuses what
the rules refuse with the engine's reason, and back online the server stores one version whose
answer equals the phone's. The database is checked afterwards."""

from __future__ import annotations

import time

import pytest

from rules_engine import api as rules_api
from tests.factories import build_event

pytestmark = pytest.mark.django_db(transaction=True)

EW_UP = {"finish": ["E", "W", "S", "N"]}
NS_UP = {"finish": ["S", "N", "E", "W"]}
# nine deals after which East–West have passed A (Suzhou preset); a tenth is refused
NINE = [EW_UP, EW_UP, EW_UP, EW_UP, NS_UP, EW_UP, NS_UP, EW_UP, EW_UP]


def tap(page, deal):
    for seat in deal["finish"][:3]:
        page.click(f"button.seat[data-seat={seat}]")


def wait_engine_ready(page, timeout=120_000):
    page.wait_for_function("window.paisaiTable.engine.status() === 'ready'", timeout=timeout)


def wait_checked(page, n, timeout=30_000):
    page.wait_for_function(
        f"document.querySelectorAll('#deal-list li').length === {n} && "
        f"document.querySelector('#deal-list').dataset.checked === '{n}'",
        timeout=timeout,
    )


def shown_levels(page):
    return page.locator("#levels-ew").inner_text(), page.locator("#levels-ns").inner_text()


def test_offline_reload_nine_deals_levels_each_a_tenth_refused_then_one_version(
    live_server, phone, login, make_tournament, make_user, grant
):
    event = build_event(make_tournament, make_user, grant)
    login(phone, live_server, event.referee)
    url = f"{live_server.url}/t/{event.tournament.slug}/table/1/"
    phone.goto(url)
    wait_engine_ready(phone)
    # the service worker has kept the page and its files
    phone.wait_for_function("!!navigator.serviceWorker.controller", timeout=60_000)
    phone.reload()  # the page itself is now kept as answered online
    wait_engine_ready(phone)

    phone.context.set_offline(True)
    phone.reload()
    phone.wait_for_selector("#levels-ew")
    assert "ERR_INTERNET_DISCONNECTED" not in phone.content()
    started = time.monotonic()
    tap(phone, NINE[0])
    wait_checked(phone, 1, timeout=60_000)
    first_answer_s = time.monotonic() - started
    print(f"first answer offline after reload: {first_answer_s:.2f} s")
    expected = rules_api.score(
        {"game": "guandan", "preset": event.tournament.preset, "deals": NINE[:1]}
    )
    assert shown_levels(phone) == (expected["levels"]["EW"], expected["levels"]["NS"])
    assert "暂定" in phone.locator("#engine-note").inner_text()
    for i, deal in enumerate(NINE[1:], start=2):
        tap(phone, deal)
        wait_checked(phone, i)
        expected = rules_api.score(
            {"game": "guandan", "preset": event.tournament.preset, "deals": NINE[:i]}
        )
        assert shown_levels(phone) == (expected["levels"]["EW"], expected["levels"]["NS"]), i
    assert expected["passed_a"] == "EW"
    # a tenth deal after a side passed A: the phone's engine says the match is over and why;
    # the seats take no further deal
    over = phone.locator("#match-over")
    phone.wait_for_function("!document.querySelector('#match-over').hidden")
    assert "过A" in over.inner_text() or "过 A" in over.inner_text(), over.inner_text()
    assert phone.locator("button.seat[data-seat=E]").is_disabled()

    from tournaments.models import ResultVersion

    assert ResultVersion.objects.filter(match=event.match).count() == 0  # nothing counts yet
    phone.context.set_offline(False)
    phone.evaluate("window.dispatchEvent(new Event('online'))")
    phone.wait_for_function(
        "document.querySelector('#engine-note').hidden === true", timeout=30_000
    )
    phone.click("#submit-result")
    phone.wait_for_function(
        "document.querySelectorAll('#deal-list li[data-state=saved]').length === 9",
        timeout=30_000,
    )
    stored = list(ResultVersion.objects.filter(match=event.match))
    assert len(stored) == 1
    assert stored[0].outcome["levels"] == expected["levels"]
    assert stored[0].outcome["passed_a"] == "EW"
