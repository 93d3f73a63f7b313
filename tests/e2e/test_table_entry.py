"""A table referee enters a Guandan match of 6 deals on a phone; captains confirm; standings."""

from __future__ import annotations

import pytest

from tests.factories import SIX_DEALS, build_event


def _wait_deals(page, n):
    """n deals on screen, all checked by the server's engine."""
    page.wait_for_function(
        f"document.querySelectorAll('#deal-list li').length === {n} && "
        f"document.querySelector('#deal-list').dataset.checked === '{n}'"
    )


@pytest.mark.django_db(transaction=True)
def test_referee_enters_six_deals_by_tapping_seats_and_captains_confirm(
    live_server, phone, login, make_event, make_user, grant
):
    event = build_event(make_event, make_user, grant)
    slug = event.event.slug
    login(phone, live_server, event.referee)
    phone.goto(f"{live_server.url}/t/{slug}/table/1/")
    assert phone.locator("button.seat[data-seat=E]").inner_text().endswith("P1-1")

    # 双上 is offered only when the two seats tapped are partners; each tap shows its place.
    phone.click("button.seat[data-seat=E]")
    phone.click("button.seat[data-seat=S]")
    assert phone.locator("#send-deal").is_disabled()
    assert phone.locator("button.seat[data-seat=S] .place").inner_text() == "2"
    phone.click("#undo-deal")
    phone.click("#undo-deal")
    assert phone.locator("#deal-list li").count() == 0

    for i, deal in enumerate(SIX_DEALS):
        for seat in deal["finish"][:3]:
            phone.click(f"button.seat[data-seat={seat}]")
        _wait_deals(phone, i + 1)
        if i == 0:  # the running levels after the first deal (double up: 2 -> 5)
            assert phone.locator("#levels-ew").inner_text() == "5"
    assert phone.locator("#levels-ew").inner_text() == "10"
    assert phone.locator("#levels-ns").inner_text() == "7"
    assert "13 : 7" in phone.locator("#match-result").inner_text()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    phone.click("#submit-result")
    phone.wait_for_selector("#history li")
    assert phone.locator("#history li").first.inner_text().startswith("v1")

    match_url = f"{live_server.url}/t/{slug}/results/match/{event.match.pk}/"
    for captain in (event.home_captain, event.away_captain):
        phone.context.clear_cookies()
        login(phone, live_server, captain)
        phone.goto(match_url)
        phone.click("#confirm-latest")
        phone.wait_for_load_state()
    assert "13 : 7" in phone.locator("#counting").inner_text()

    phone.goto(f"{live_server.url}/t/{slug}/standings/")
    rows = phone.locator("table tbody tr").all_inner_texts()
    # the team cell: its name, then (on a phone) its tiebreaks on a line of their own
    points = {row.split("\t")[1].split("\n")[0]: row.split("\t")[2] for row in rows}
    assert points[event.teams[0].name] == "13" and points[event.teams[1].name] == "7"


@pytest.mark.django_db(transaction=True)
def test_referee_enters_only_the_final_levels_when_the_preset_allows(
    live_server, phone, login, make_event, make_user, grant
):
    from tournaments.models import ResultVersion

    event = build_event(make_event, make_user, grant)
    login(phone, live_server, event.referee)
    phone.goto(f"{live_server.url}/t/{event.event.slug}/table/1/")
    phone.click("#final-levels summary")
    phone.select_option("#final_ew", "9")
    phone.select_option("#final_ns", "7")
    # suzhou: difference 2 scores 12:8
    phone.wait_for_function(
        "document.querySelector('#match-result').textContent.includes('12 : 8')"
    )
    assert phone.locator("#levels-ew").inner_text() == "9"
    phone.select_option("#final_passed", "NS")  # NS is not on A: refused with the reason
    phone.wait_for_selector("#final-status.error")  # beside the button, not at the top
    assert "其最终级数须为 A" in phone.locator("#final-status").inner_text()
    phone.select_option("#final_passed", "")
    phone.click("#submit-final")
    phone.wait_for_selector("#history li")
    version = ResultVersion.objects.get(match=event.match)
    assert version.record["final_levels"] == {"EW": "9", "NS": "7"}
    assert version.outcome["match_points"] == {"EW": 12, "NS": 8}


@pytest.mark.django_db(transaction=True)
def test_final_levels_entry_is_hidden_when_the_event_switches_it_off(
    live_server, phone, login, make_event, make_user, grant
):
    event = build_event(make_event, make_user, grant)
    event.event.settings = {"final_levels_entry": False}
    event.event.save()
    login(phone, live_server, event.referee)
    phone.goto(f"{live_server.url}/t/{event.event.slug}/table/1/")
    assert phone.locator("#final-levels").count() == 0


@pytest.mark.django_db(transaction=True)
def test_a_refused_deal_is_kept_marked_with_its_reason_and_the_earlier_deals_stay(
    live_server, phone, login, make_event, make_user, grant
):
    event = build_event(make_event, make_user, grant)
    event.event.game, event.event.preset = "chengyu", "chengyu"
    event.event.save()
    login(phone, live_server, event.referee)
    phone.goto(f"{live_server.url}/t/{event.event.slug}/table/1/")
    for ew, ns in ((8, 5), (8, 6)):  # the second deal's tricks do not add up to 13
        phone.fill("#tricks_ew", str(ew))
        phone.fill("#tricks_ns", str(ns))
        phone.click("#deal-form button[type=submit]")
    phone.wait_for_selector("#deal-list li[data-state=refused]")
    phone.wait_for_timeout(300)  # no re-preview wipes the reason or the deal
    assert phone.locator("#table-message").is_visible()
    assert phone.locator("#deal-list li").count() == 2
    assert "13" in phone.locator("#deal-list li").nth(1).inner_text()
    assert phone.locator("#submit-result").is_disabled()
    phone.click("#deal-list li[data-state=refused] .remove-deal")
    phone.wait_for_function("document.querySelector('#levels-ew').textContent === '1'")
    assert phone.locator("#deal-list li").count() == 1
    assert phone.locator("#submit-result").is_enabled()


@pytest.mark.django_db(transaction=True)
def test_tractor_deal_list_shows_dealer_points_bottom_throws_total_and_result(
    live_server, phone, login, make_event, make_user, grant
):
    event = build_event(make_event, make_user, grant)
    event.event.game, event.event.preset = "tractor", "tractor"
    event.event.save()
    login(phone, live_server, event.referee)
    phone.goto(f"{live_server.url}/t/{event.event.slug}/table/1/")
    phone.select_option("#dealer", "EW")
    phone.fill("#defender_points", "85")
    phone.fill("#bottom_points", "15")
    phone.select_option("#bottom_multiplier", "4")
    phone.fill("#throw_cards", "2")
    phone.select_option("#throw_side", "NS")
    phone.click("#deal-form button[type=submit]")
    _wait_deals(phone, 1)
    text = phone.locator("#deal-list li").first.inner_text()
    for part in ("庄家 东西", "85", "底牌 15 × 4", "甩牌失败 南北 2", "合计 125", "闲家上台"):
        assert part in text, (part, text)


@pytest.mark.django_db(transaction=True)
def test_tractor_points_the_engine_refuses_are_kept_with_the_engines_reason(
    live_server, phone, login, make_event, make_user, grant
):
    event = build_event(make_event, make_user, grant)
    event.event.game, event.event.preset = "tractor", "tractor"
    event.event.save()
    login(phone, live_server, event.referee)
    phone.goto(f"{live_server.url}/t/{event.event.slug}/table/1/")
    phone.select_option("#dealer", "EW")
    phone.fill("#defender_points", "83")  # not a multiple of 5: the server's engine says so
    phone.click("#deal-form button[type=submit]")
    phone.wait_for_selector("#deal-list li[data-state=refused]")
    assert "83" in phone.locator("#deal-list li").first.inner_text()
    assert phone.locator("#table-message.error").is_visible()


@pytest.mark.django_db(transaction=True)
def test_the_300_point_rule_is_the_engines_refusal_shown_on_the_deal(
    live_server, phone, login, make_event, make_user, grant
):
    event = build_event(make_event, make_user, grant)
    event.event.game, event.event.preset = "tractor", "tractor"
    event.event.save()
    login(phone, live_server, event.referee)
    phone.goto(f"{live_server.url}/t/{event.event.slug}/table/1/")
    phone.select_option("#dealer", "EW")
    phone.fill("#defender_points", "290")
    phone.fill("#bottom_points", "40")
    phone.click("#deal-form button[type=submit]")
    phone.wait_for_selector("#deal-list li[data-state=refused]")
    assert "300" in phone.locator("#deal-list li").first.inner_text()
    assert phone.locator("#submit-result").is_disabled()
