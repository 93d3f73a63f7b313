"""On the table's phone: captains sign with their own login; changed meanwhile shows both
versions' deals side by side."""

from __future__ import annotations

import pytest

from tests.e2e.test_table_resilience import tap, versions, wait_deals, wait_saved
from tests.e2e.test_table_result_path import below
from tests.factories import SIX_DEALS, actor, guandan_record

pytestmark = pytest.mark.django_db(transaction=True)


def test_both_captains_sign_on_the_referees_phone_and_the_result_counts(table, phone):
    """Each signature is answered beside its button, in words with what comes next: a wrong
    password (type it again, the tries left), the first captain (now the other team's), the
    second (counts, nothing more to do)."""
    for i, deal in enumerate(SIX_DEALS[:3]):
        tap(phone, deal)
        wait_deals(phone, i + 1)
    phone.click("#submit-result")
    wait_saved(phone, 3)
    phone.wait_for_selector("#captains:not([hidden])")
    phone.fill("#captain-username", table.home_captain.username)
    phone.fill("#captain-password", "wrong")
    phone.click("#captain-sign")
    phone.wait_for_selector("#captain-status.error")
    said = phone.locator("#captain-status").inner_text()
    assert "未签字" in said and "重新输入自己的用户名和密码" in said and "再错 9 次" in said, said
    assert 0 <= below(phone, "#captain-sign", "#captain-status") < 60  # beside the button
    assert not versions(table)[0].confirmations.exists()
    home, away = table.teams[0].name, table.teams[1].name
    expected = {"cap_home": f"现在请 {away} 的队长", "cap_away": "第 1 版现已生效"}
    for captain in (table.home_captain, table.away_captain):
        phone.fill("#captain-username", captain.username)
        phone.fill("#captain-password", "pw-" + captain.username)
        phone.click("#captain-sign")
        phone.wait_for_function(
            "t => document.querySelector('#captain-status.ok')?.textContent.includes(t)",
            arg=expected[captain.username],
        )
        phone.wait_for_function("document.querySelector('#captain-password').value === ''")
    said = phone.locator("#captain-status").inner_text()
    assert said.startswith(f"{away} 已签字") and "无需再做" in said, said
    # the form goes once the result counts; what the signature did stays said
    phone.wait_for_selector("#captain-form", state="hidden")
    assert phone.locator("#captain-status").is_visible()
    stored = versions(table)[0]
    assert stored.is_counting
    assert {c.user.username for c in stored.confirmations.all()} == {"cap_home", "cap_away"}
    assert {c.team.name for c in stored.confirmations.all()} == {home, away}
    # the referee is still the one logged in on the phone
    tap(phone, SIX_DEALS[3])
    wait_deals(phone, 4)


def test_too_many_wrong_signatures_pause_signing_and_say_until_when_and_what_else(
    table, phone, settings
):
    from tournaments.services import result_entry

    settings.PAISAI_CAPTAIN_SIGN_LIMIT = 2
    result_entry.submit(table.match, guandan_record(SIX_DEALS[:2]), actor(table.referee2), 0)
    phone.reload()
    phone.wait_for_selector("#captains:not([hidden])")
    for _attempt in range(2):
        phone.fill("#captain-username", table.away_captain.username)
        phone.fill("#captain-password", "wrong")
        phone.click("#captain-sign")
        phone.wait_for_selector("#captain-status.error")
        phone.wait_for_function("document.querySelector('#captain-sign').disabled === false")
    phone.wait_for_function(
        "document.querySelector('#captain-status').textContent.includes('暂停')"
    )
    said = phone.locator("#captain-status").inner_text()
    assert "暂停 cap_away 签字，至" in said and "我的比赛" in said and "裁判长" in said, said
    assert 0 <= below(phone, "#captain-sign", "#captain-status") < 60
    assert not versions(table)[0].confirmations.exists()


def test_changed_meanwhile_shows_both_versions_and_mine_goes_on_top(table, phone):
    from tournaments.services import result_entry

    for i, deal in enumerate(SIX_DEALS[:3]):
        tap(phone, deal)
        wait_deals(phone, i + 1)
    result_entry.submit(table.match, guandan_record(SIX_DEALS[:2]), actor(table.referee2), 0)
    phone.click("#submit-result")
    phone.wait_for_selector("#conflict:not([hidden])")
    assert "ref1b" in phone.locator("#conflict-text").inner_text()
    assert phone.locator("#conflict-theirs li").count() == 2
    assert phone.locator("#conflict-mine li").count() == 3
    assert phone.locator("#deal-list li").count() == 3  # nothing of mine was dropped
    phone.click("#resubmit")
    wait_saved(phone, 3)
    assert [len(v.record["deals"]) for v in versions(table)] == [2, 3]
    assert versions(table)[1].created_by == table.referee


def test_my_own_earlier_save_from_another_phone_is_recognised(table, phone):
    from tournaments.services import result_entry

    for i, deal in enumerate(SIX_DEALS[:2]):
        tap(phone, deal)
        wait_deals(phone, i + 1)
    finishes = [{"finish": d["finish"][:3]} for d in SIX_DEALS[:2]]
    result_entry.submit(table.match, guandan_record(finishes), actor(table.referee), 0)
    phone.click("#submit-result")
    wait_saved(phone, 2)  # the same deals: taken as saved in version 1, no second version
    assert phone.locator("#conflict").is_hidden()
    assert len(versions(table)) == 1


def test_the_phone_names_people_by_display_name_in_the_versions_and_changed_meanwhile(table, phone):
    from tournaments.services import result_entry

    table.referee.first_name = "王明"
    table.referee.save(update_fields=["first_name"])
    table.referee2.first_name = "李华"
    table.referee2.save(update_fields=["first_name"])
    tap(phone, SIX_DEALS[0])
    wait_deals(phone, 1)
    phone.click("#submit-result")
    wait_saved(phone, 1)
    phone.wait_for_selector("#history li")
    line = phone.locator("#history li").first.inner_text()
    assert "王明" in line and "ref1" not in line  # the name, never the username
    result_entry.submit(table.match, guandan_record(SIX_DEALS[:1]), actor(table.referee2), 1)
    tap(phone, SIX_DEALS[1])
    wait_deals(phone, 2)
    phone.click("#submit-result")
    phone.wait_for_selector("#conflict:not([hidden])")
    assert "李华" in phone.locator("#conflict-text").inner_text()
    assert "李华" in phone.locator("#conflict-theirs-title").inner_text()
    assert "ref1b" not in phone.locator("#conflict").inner_text()
    phone.click("#take-theirs")
    phone.reload()
    phone.wait_for_function("document.querySelectorAll('#history li').length === 2")
    assert "李华" in phone.locator("#history li").first.inner_text()
