"""Issue 35 on the chief's match page, a 390×844 zh-CN phone: the chief corrects deal 5 while
the referee's resubmission (deal 3 changed) is stored meanwhile. The 409 shows the same
side-by-side card as the table page (static/js/table_history.js), the differing deals
marked, and the chief merges: version 3, a correction, holds both changes (the database)."""

from __future__ import annotations

import pytest

from tests.e2e.test_table_merge import EW_UP3, NINE, NS_UP1, change_deal
from tests.e2e.test_table_resilience import versions, wait_deals
from tests.factories import actor, build_event, guandan_record

pytestmark = pytest.mark.django_db(transaction=True)


def changed(deals, number, deal):
    out = list(deals)
    out[number - 1] = deal
    return out


@pytest.fixture
def chief_on_v1(live_server, phone, login, make_event, make_user, grant):
    """Version 1 counts; the chief opens its match page on a phone; the referee then
    stores version 2 (deal 3 changed), unseen by the chief's page."""
    from tournaments.services import result_confirm, result_entry

    event = build_event(make_event, make_user, grant)
    result_entry.submit(event.match, guandan_record(NINE), actor(event.referee), 0)
    result_confirm.confirm(event.match, 1, actor(event.referee2))
    login(phone, live_server, event.chief)
    phone.goto(f"{live_server.url}/t/{event.event.slug}/results/match/{event.match.pk}/")
    wait_deals(phone, 9)
    result_entry.submit(
        event.match, guandan_record(changed(NINE, 3, NS_UP1)), actor(event.referee), 1
    )
    return event


def test_the_chief_sees_the_409_side_by_side_and_merges(chief_on_v1, phone):
    event = chief_on_v1
    change_deal(phone, 5, EW_UP3)
    phone.fill("#result-note", "第 5 副东西双上")
    phone.click("#submit-result")
    phone.wait_for_selector("#conflict:not([hidden])")
    assert "已被他人更改" in phone.locator("#conflict-text").inner_text()
    assert phone.locator("#conflict-theirs li").nth(2).get_attribute("data-diff") == "theirs"
    assert phone.locator("#conflict-mine li").nth(4).get_attribute("data-diff") == "mine"
    assert phone.locator("#conflict li[data-diff]").count() == 2
    said = phone.locator("#conflict-merge").inner_text()
    assert "第 3 副只在第 2 版中改动：保留" in said and "第 5 副只在本机改动" in said, said
    card = phone.locator("#conflict").bounding_box()
    assert card["width"] <= 390 and card["height"] > 0
    with phone.expect_navigation():  # the correction counts: the match page shows it
        phone.click("#resubmit")
    stored = versions(event)
    assert [v.number for v in stored] == [1, 2, 3]
    newest = stored[-1]
    assert newest.kind == "correction" and newest.is_counting
    assert newest.record["deals"][2] == NS_UP1  # the referee's change, kept
    assert newest.record["deals"][4] == EW_UP3  # the chief's correction
    assert newest.note == "第 5 副东西双上"
    assert "3" in phone.locator("#counting").inner_text()


def test_a_deal_both_changed_the_chief_may_choose_hers(chief_on_v1, phone):
    event = chief_on_v1
    change_deal(phone, 3, EW_UP3)
    phone.fill("#result-note", "第 3 副东西双上")
    phone.click("#submit-result")
    phone.wait_for_selector("#conflict:not([hidden])")
    assert phone.locator("#conflict-mine li").nth(2).get_attribute("data-diff") == "conflict"
    choice = phone.locator("#conflict-choices li[data-deal='3']")
    assert choice.locator(".choose-mine").is_enabled()  # the chief's own choice
    choice.locator(".choose-mine").click()
    with phone.expect_navigation():
        phone.click("#resubmit")
    newest = versions(event)[-1]
    assert newest.number == 3 and newest.kind == "correction"
    assert newest.record["deals"][2] == EW_UP3
