"""The chief's correction uses the table page's deal editor (taps, not JSON) and shows what
changes against the counting version; a correction that changes nothing is not offered."""

from __future__ import annotations

import pytest

from tests.e2e.test_table_resilience import tap, wait_deals
from tests.factories import SIX_DEALS, actor, build_event, guandan_record

pytestmark = pytest.mark.django_db(transaction=True)


def test_chief_corrects_a_deal_by_tapping_and_sees_what_changes(
    live_server, desktop, login, make_event, make_user, grant
):
    from tournaments.models import ResultVersion
    from tournaments.services import result_confirm, result_entry

    event = build_event(make_event, make_user, grant)
    result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    result_confirm.confirm(event.match, 1, actor(event.referee2))
    login(desktop, live_server, event.chief)
    desktop.goto(f"{live_server.url}/t/{event.event.slug}/results/match/{event.match.pk}/")
    assert desktop.locator("#correction textarea").count() == 0  # no JSON any more
    wait_deals(desktop, 6)
    assert "与第 1 版相同" in desktop.locator("#diff-summary").inner_text()
    assert desktop.locator("#submit-result").is_disabled()  # nothing changes yet
    desktop.click("#undo-deal")  # the last deal was E N S W; it was N E S W
    tap(desktop, {"finish": ["N", "E", "S", "W"]})
    wait_deals(desktop, 6)
    last = desktop.locator("#deal-list li").nth(5).inner_text()
    assert "已改" in last
    assert "改了 1 副" in desktop.locator("#diff-summary").inner_text()
    desktop.click("#submit-result")  # no reason yet: asked for one beside the button
    desktop.wait_for_selector("#submit-status.error")
    assert ResultVersion.objects.filter(match=event.match).count() == 1
    desktop.fill("#result-note", "deal 6: N went out first")
    with desktop.expect_navigation():  # the correction counts: the match page shows it
        desktop.click("#submit-result")
    assert "2" in desktop.locator("#counting").inner_text()
    correction = ResultVersion.objects.get(match=event.match, number=2)
    assert correction.kind == "correction" and correction.is_counting
    assert correction.record["deals"][5] == {"finish": ["N", "E", "S"]}
    assert correction.record["deals"][:5] == SIX_DEALS[:5]
    assert correction.note == "deal 6: N went out first"


def test_a_refusal_beside_the_final_levels_button_stays_when_a_late_preview_answers(
    live_server, desktop, login, make_event, make_user, grant
):
    """The chief changes a final level and taps save before the engine's check of the change
    has answered (a slow network): "give a reason" is shown beside the button and stays there
    when the check's answer arrives (it used to wipe it)."""
    from tournaments.models import ResultVersion
    from tournaments.services import result_entry

    event = build_event(make_event, make_user, grant)
    record = {"game": "guandan", "final_levels": {"EW": "9", "NS": "2"}}
    result_entry.submit(event.match, record, actor(event.chief), 0, confirm=True)
    login(desktop, live_server, event.chief)
    desktop.goto(f"{live_server.url}/t/{event.event.slug}/results/match/{event.match.pk}/")
    summary = "document.querySelector('#diff-summary').textContent"
    desktop.wait_for_function(f"{summary}.includes('相同')")
    held = []
    desktop.route("**/preview/", lambda route: held.append(route))  # answered later
    desktop.select_option("#final_ns", "4")
    desktop.wait_for_function("true")  # let the page's change handler ask
    for _ in range(50):
        if held:
            break
        desktop.wait_for_timeout(100)
    assert held, "the change asked the engine"
    desktop.click("#submit-final")  # no reason given
    status = desktop.locator("#final-status")
    assert "理由" in status.inner_text() and "error" in status.get_attribute("class")
    for route in held:
        route.continue_()
    desktop.unroute("**/preview/")
    desktop.wait_for_function(f"{summary}.includes('→')")  # the engine's answer is in
    assert "理由" in status.inner_text() and status.is_visible()
    assert ResultVersion.objects.filter(match=event.match).count() == 1
