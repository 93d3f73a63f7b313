"""Seating, lateness and a per-team forfeit, on 390×844 phones in Chinese: the table
referees mark 已入座 (one table offline, then back online), the clock passes start + 10:00,
the chief goes from the operations board to the attendance page, sees exactly the unseated
team of the empty table named and unticked, selects it, confirms the dialog naming it, and
the database holds the preset's forfeit win for its opponent."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.e2e.conftest import confirm_dialog, watch_csp
from tests.factories import build_event

pytestmark = pytest.mark.django_db(transaction=True)


def new_phone(browser):
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="zh-CN",
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page, watch_csp(page)


def seated_ids(event) -> set[int]:
    from tournaments.models import Seating

    return set(Seating.objects.filter(round=event.round).values_list("team_id", flat=True))


def test_referees_seat_tables_and_the_chief_forfeits_the_one_late_team(
    live_server, browser, phone, login, make_event, make_user, grant, time_machine
):
    from tournaments.models import AuditLog, ResultVersion, Round

    start = datetime.now(UTC).replace(microsecond=0)
    time_machine.move_to(start, tick=True)
    event = build_event(make_event, make_user, grant)
    Round.objects.filter(pk=event.round.pk).update(started_at=start)
    slug = event.event.slug
    first, second = event.match, event.match2

    # table 1: its referee marks both teams seated in one tap (全部入座)
    login(phone, live_server, event.referee)
    phone.goto(f"{live_server.url}/t/{slug}/table/1/")
    phone.click("#seat-all")
    phone.wait_for_selector("#seating-status.ok")
    assert phone.locator("button[data-seat-side=EW]").get_attribute("aria-pressed") == "true"
    assert seated_ids(event) == {first.home_id, first.away_id}

    # table 2: the network drops; its referee marks the home team; the mark waits on the phone
    other, other_csp = new_phone(browser)
    login(other, live_server, event.other_referee)
    other.goto(f"{live_server.url}/t/{slug}/table/2/")
    other.wait_for_selector("#seating")
    other.context.set_offline(True)
    other.click("button[data-seat-side=EW]")
    other.wait_for_selector("#seating-status.warn")  # kept on this phone
    assert "已入座" in other.locator("button[data-seat-side=EW]").inner_text()
    assert second.home_id not in seated_ids(event)
    other.context.set_offline(False)
    other.wait_for_selector("#seating-status.ok")  # sent once the network is back
    assert seated_ids(event) == {first.home_id, first.away_id, second.home_id}
    other.reload()  # the mark survives a reload (the server holds it)
    other.wait_for_function(
        "document.querySelector('button[data-seat-side=EW]').getAttribute('aria-pressed') === 'true'"
    )
    other.context.close()
    assert other_csp == []

    # the clock passes start + 10:00 (9:59 is not late yet)
    time_machine.move_to(start + timedelta(minutes=9, seconds=59), tick=False)
    chief, chief_csp = new_phone(browser)
    login(chief, live_server, event.chief)
    chief.goto(f"{live_server.url}/t/{slug}/manage/rounds/1/board/")
    assert chief.locator("#late-forfeits").count() == 0
    time_machine.move_to(start + timedelta(minutes=10, seconds=30), tick=True)
    chief.reload()
    assert "已入座" in chief.locator("#board").inner_text()  # the board shows the seat marks
    chief.click(f"a[href='/t/{slug}/manage/rounds/1/attendance/']")
    chief.wait_for_selector("#late-teams")
    rows = chief.locator("#late-teams tbody tr")
    assert rows.count() == 1  # exactly the unseated team of the empty table
    assert event.teams[3].name in rows.first.inner_text()  # table 2's North–South team
    box = chief.locator("#late-teams input[name=team]")
    assert not box.is_checked()  # none ticked by default
    chief.click("#late-select-all")  # 全选: select all listed
    assert box.is_checked()
    chief.click("#confirm-forfeits")
    dialog = chief.locator("dialog.confirm-dialog")
    dialog.wait_for()
    assert dialog.bounding_box()["width"] <= 390  # fits the phone
    confirm_dialog(chief, event.teams[3].name)  # the dialog names the team; OK ≥ 44 px
    chief.wait_for_selector(".messages")
    assert event.teams[3].name in chief.locator("main").inner_text()

    version = ResultVersion.objects.get(match=second)
    win, loss = event.event.get_preset().forfeit_points
    assert version.is_counting and version.record["forfeit"] == "NS"
    assert version.outcome["match_points"] == {"EW": win, "NS": loss} and win > loss
    assert not ResultVersion.objects.filter(match=first).exists()
    assert AuditLog.objects.get(action="team.late_forfeit").target_id == str(second.away_id)
    chief.context.close()
    assert chief_csp == []
