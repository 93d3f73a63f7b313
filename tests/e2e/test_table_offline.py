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


def open_then_go_offline(phone, url):
    """One online visit (the service worker keeps the page and its files, the engine starts
    and the phone keeps its start-up snapshot), then no network and a reload: the page opens
    from what the phone kept."""
    phone.goto(url)
    phone.wait_for_function("window.paisaiTable.offlineKept === true", timeout=60_000)
    phone.wait_for_function("window.paisaiTable.engine.snapshotKept !== null", timeout=120_000)
    assert phone.evaluate("window.paisaiTable.engine.snapshotKept") > 0
    phone.context.set_offline(True)
    phone.reload()
    phone.wait_for_selector("#levels-ew")
    assert "ERR_INTERNET_DISCONNECTED" not in phone.content()


def back_online(phone):
    phone.context.set_offline(False)
    phone.evaluate("window.dispatchEvent(new Event('online'))")
    phone.wait_for_function(
        "document.querySelector('#engine-note').hidden === true", timeout=30_000
    )


def submit_back_online(phone, event, deals: int):
    """Back online, the referee submits the deals kept offline: the versions stored."""
    from tournaments.models import ResultVersion

    back_online(phone)
    phone.click("#submit-result")
    phone.wait_for_function(
        f"document.querySelectorAll('#deal-list li[data-state=saved]').length === {deals}"
    )
    return list(ResultVersion.objects.filter(match=event.match))


def server_answer(event, deals):
    return rules_api.score({"game": event.event.game, "preset": event.event.preset, "deals": deals})


def test_offline_reload_nine_deals_levels_each_a_tenth_refused_then_one_version(
    live_server, phone, login, make_event, make_user, grant
):
    event = build_event(make_event, make_user, grant)
    login(phone, live_server, event.referee)
    open_then_go_offline(phone, f"{live_server.url}/t/{event.event.slug}/table/1/")
    opened = time.monotonic()
    tap(phone, NINE[0])
    tapped = time.monotonic()
    wait_checked(phone, 1, timeout=60_000)
    answered = time.monotonic()
    ready_ms = phone.evaluate("window.paisaiTable.engine.startMs")
    # the offline start begins from the snapshot the online visit kept
    assert phone.evaluate("window.paisaiTable.engine.fromSnapshot") is True
    print(
        f"offline reload: engine ready {ready_ms} ms after the page opened (from the kept "
        f"snapshot); first answer "
        f"{answered - tapped:.2f} s after the tap, {answered - opened:.2f} s after the page"
    )
    expected = rules_api.score({"game": "guandan", "preset": event.event.preset, "deals": NINE[:1]})
    assert shown_levels(phone) == (expected["levels"]["EW"], expected["levels"]["NS"])
    assert "暂定" in phone.locator("#engine-note").inner_text()
    for i, deal in enumerate(NINE[1:], start=2):
        tap(phone, deal)
        wait_checked(phone, i)
        expected = rules_api.score(
            {"game": "guandan", "preset": event.event.preset, "deals": NINE[:i]}
        )
        assert shown_levels(phone) == (expected["levels"]["EW"], expected["levels"]["NS"]), i
        if i == 5:  # a reload with no network: the kept deals and their levels are back
            phone.reload()
            wait_checked(phone, 5, timeout=60_000)
            assert shown_levels(phone) == (expected["levels"]["EW"], expected["levels"]["NS"])
    assert expected["passed_a"] == "EW"
    # a tenth deal after a side passed A: the phone's engine says the match is over and why;
    # the seats take no further deal
    over = phone.locator("#match-over")
    phone.wait_for_function("!document.querySelector('#match-over').hidden")
    assert "过A" in over.inner_text() or "过 A" in over.inner_text(), over.inner_text()
    assert phone.locator("button.seat[data-seat=E]").is_disabled()

    from tournaments.models import ResultVersion

    assert ResultVersion.objects.filter(match=event.match).count() == 0  # nothing counts yet
    back_online(phone)
    phone.click("#submit-result")
    phone.wait_for_function(
        "document.querySelectorAll('#deal-list li[data-state=saved]').length === 9",
        timeout=30_000,
    )
    stored = list(ResultVersion.objects.filter(match=event.match))
    assert len(stored) == 1
    assert stored[0].outcome["levels"] == expected["levels"]
    assert stored[0].outcome["passed_a"] == "EW"


TRACTOR = [
    {"dealer": "EW", "defender_points": 85, "bottom_points": 15, "bottom_multiplier": 4},
    {"defender_points": 40},
    {"defender_points": 0},
]


def test_tractor_offline_dealer_points_and_bottom_scored_on_the_phone_then_one_version(
    live_server, phone, login, make_event, make_user, grant
):
    event = build_event(make_event, make_user, grant)
    event.event.game, event.event.preset = "tractor", "tractor"
    event.event.save()
    login(phone, live_server, event.referee)
    open_then_go_offline(phone, f"{live_server.url}/t/{event.event.slug}/table/1/")
    for i, deal in enumerate(TRACTOR, start=1):
        if "dealer" in deal:
            phone.select_option("#dealer", deal["dealer"])
        phone.fill("#defender_points", str(deal["defender_points"]))
        if "bottom_points" in deal:
            phone.fill("#bottom_points", str(deal["bottom_points"]))
            phone.select_option("#bottom_multiplier", str(deal["bottom_multiplier"]))
        phone.click("#deal-form button[type=submit]")
        wait_checked(phone, i, timeout=60_000)
        expected = server_answer(event, TRACTOR[:i])
        assert shown_levels(phone) == (expected["levels"]["EW"], expected["levels"]["NS"]), i
    first = phone.locator("#deal-list li").first.inner_text()
    assert "底牌 15 × 4" in first and "合计 145" in first, first
    # points the rules refuse: refused on the phone with the engine's reason
    phone.fill("#defender_points", "83")
    phone.click("#deal-form button[type=submit]")
    phone.wait_for_selector("#deal-list li[data-state=refused]")
    assert "5" in phone.locator("#table-message").inner_text()
    phone.click("#deal-list li[data-state=refused] .remove-deal")
    wait_checked(phone, 3)
    stored = submit_back_online(phone, event, 3)
    assert len(stored) == 1 and stored[0].outcome["levels"] == expected["levels"]


def test_idiom_chain_offline_three_deals_then_the_match_is_decided_on_the_phone(
    live_server, phone, login, make_event, make_user, grant
):
    event = build_event(make_event, make_user, grant)
    event.event.game, event.event.preset = "chengyu", "chengyu"
    event.event.save()
    login(phone, live_server, event.referee)
    open_then_go_offline(phone, f"{live_server.url}/t/{event.event.slug}/table/1/")
    deals = [(8, 5), (6, 7), (9, 4)]
    for i, (ew, ns) in enumerate(deals, start=1):
        phone.fill("#tricks_ew", str(ew))
        phone.fill("#tricks_ns", str(ns))
        phone.click("#deal-form button[type=submit]")
        wait_checked(phone, i, timeout=60_000)
    expected = server_answer(event, [{"tricks": {"EW": ew, "NS": ns}} for ew, ns in deals])
    assert shown_levels(phone) == (
        str(expected["deals_won"]["EW"]),
        str(expected["deals_won"]["NS"]),
    )
    # three decided deals: the phone's engine says the match is over and takes no fourth deal
    phone.wait_for_function("!document.querySelector('#match-over').hidden")
    assert phone.locator("#match-over").inner_text().strip()
    assert phone.locator("#deal-form button[type=submit]").is_disabled()
    stored = submit_back_online(phone, event, 3)
    assert len(stored) == 1 and stored[0].outcome["deals_won"] == expected["deals_won"]


def test_the_rules_desk_answers_offline_with_the_same_ruling_as_the_server(
    live_server, phone, login, make_event, make_user, grant
):
    event = build_event(make_event, make_user, grant)
    login(phone, live_server, event.chief)
    phone.goto(f"{live_server.url}/arbitration/t/{event.event.slug}/desk/")
    phone.wait_for_function("window.paisaiDesk.kept === true", timeout=60_000)
    phone.context.set_offline(True)
    phone.reload()
    phone.wait_for_selector("#desk-form")
    phone.select_option("#id_game", "tractor")
    phone.fill("#id_level", "5")
    phone.fill("#id_trump", "S")
    phone.fill("#id_hand", "C3 C8 C8 D4 H6")
    phone.fill("#id_lead", "C9 C9")
    phone.fill("#id_play", "C3 C8")
    phone.check("#id_list_plays")
    phone.click("#desk-form button[name=ask]")
    phone.wait_for_selector("#desk-offline-note", timeout=60_000)
    assert phone.locator("#verdict").inner_text() == "违规"
    ruling = phone.locator("#desk-ruling").inner_text()
    assert "须跟出梅花的一个对子" in ruling  # the engine's reason in Chinese, as online
    assert phone.locator("#legal-plays li").count() >= 1
    assert "无网络" in phone.locator("#desk-offline-note").inner_text()


def test_a_new_deployment_is_used_whole_at_the_next_online_load(
    live_server, phone, login, make_event, make_user, grant, settings
):
    event = build_event(make_event, make_user, grant)
    login(phone, live_server, event.referee)
    phone.goto(f"{live_server.url}/t/{event.event.slug}/table/1/")
    phone.wait_for_function("window.paisaiTable.offlineKept === true", timeout=60_000)
    old = phone.evaluate("window.paisaiTable.cfg.offline.version")
    settings.PAISAI_DEPLOYMENT = "release-2"  # a new deployment: new files, a new version
    phone.reload()
    new = phone.evaluate("window.paisaiTable.cfg.offline.version")
    assert new != old and new.endswith("-release-2")
    scripts = phone.evaluate(
        "Array.from(document.scripts).map(s => s.src).filter(s => s.includes('/static/js/'))"
    )
    # the page's own files are named by the version (the site's shared files, e.g. paisai.js,
    # are asked of the network first whenever there is one)
    versioned = [src for src in scripts if "?v=" in src]
    assert len(versioned) >= 6 and all(src.endswith(f"?v={new}") for src in versioned), scripts
    # the new service worker takes over and drops the old version's caches
    phone.wait_for_function(
        f"caches.keys().then(k => k.length > 0 && k.every(n => n.endsWith('{new}')))",
        timeout=60_000,
    )
    loaded = phone.evaluate(
        "performance.getEntriesByType('resource').map(e => e.name)"
        ".filter(n => n.includes('/static/js/'))"
    )
    assert not [name for name in loaded if name.endswith(f"?v={old}")], loaded
