"""Issue 36, walked on a phone (390×844, zh-CN): the organiser changes the tie-break order on
the settings page with select boxes (no JSON), sees the change in words, confirms, and the
standings page says the new rules line; the audit log has the change."""

from __future__ import annotations

import pytest

from tests import factories
from tournaments.models import AuditLog, Event

pytestmark = pytest.mark.e2e


def test_organiser_changes_the_tiebreaks_on_a_phone(live_server, phone, login):
    event = factories.event(name="南山杯", slug="nanshan", units=0, preset="guandan-nanshan-2026")
    for name in ("龙队", "虎队", "鹤队", "鹿队"):
        factories.team(event, name)
    organiser = factories.user("组委李")
    factories.grant(organiser, event, "organiser")
    page = login(phone, live_server, organiser)
    base = live_server.url

    page.goto(f"{base}/t/nanshan/manage/settings/")
    page.wait_for_selector("#event-settings")
    assert page.locator("#id_standings_order_0").is_visible()
    page.select_option("#id_standings_order_1", "wins")
    page.select_option("#id_standings_order_2", "opponents_points")
    page.select_option("#id_standings_order_3", "")
    page.click("#event-settings button[type=submit]")

    preview = page.wait_for_selector("#settings-preview")
    text = preview.inner_text()
    assert "排名顺序" in text and "场分 → 胜场数 → 对手分" in text
    assert Event.objects.get(pk=event.pk).settings == {}  # nothing stored before confirming
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width  # the preview fits the phone
    page.click("#settings-confirm button[name=confirmed]")
    page.wait_for_selector("#settings-history")
    entry = AuditLog.objects.get(event=event, action="event.settings")
    assert entry.actor_name == "组委李"
    assert entry.data["changes"]["settings.standings_order"][1][:3] == [
        "points",
        "wins",
        "opponents_points",
    ]

    page.goto(f"{base}/t/nanshan/manage/standings/")
    line = page.inner_text("#rules-line")
    assert line.startswith("规则：南山杯 2026 规则（1/0.5/0，缺席 −1）"), line
    assert "同分依次比：胜场数、对手分" in line and "改动 1 处" in line
