"""Issue 35, no silent overwrite, on a 390×844 zh-CN phone: the chief corrects deal 5 while
the referee's phone, still on version 1, changes deal 3. The 409 marks the deals that differ
and says which merge; "mine over the newer version" stores version 3 holding both changes
(asserted in the database). A deal both changed needs the referee's choice."""

from __future__ import annotations

import pytest

from tests.e2e.test_table_resilience import tap, versions, wait_deals, wait_saved
from tests.factories import actor, guandan_record

pytestmark = pytest.mark.django_db(transaction=True)

EW_UP1 = {"finish": ["E", "N", "S"]}
NS_UP1 = {"finish": ["N", "E", "W"]}
EW_UP3 = {"finish": ["E", "W", "S"]}
NINE = [EW_UP1, NS_UP1] * 4 + [EW_UP1]  # nobody reaches A: EW 7, NS 6


def on_version_1_then_the_chief_corrects_deal_5(table, phone):
    from tournaments.services import result_entry

    result_entry.submit(table.match, guandan_record(NINE), actor(table.referee), 0)
    phone.goto(table.url)
    wait_saved(phone, 9)  # the phone resumes from version 1
    corrected = list(NINE)
    corrected[4] = EW_UP3
    result_entry.correct(
        table.match, guandan_record(corrected), actor(table.chief), 1, "第 5 副东西双上"
    )


def change_deal(phone, number, deal):
    phone.locator("#deal-list li").nth(number - 1).locator(".edit-deal").click()
    tap(phone, deal)
    wait_deals(phone, 9)
    phone.wait_for_function(
        "n => document.querySelectorAll('#deal-list li')[n].dataset.state === 'local'",
        arg=number - 1,
    )


def test_the_chiefs_deal_5_correction_survives_the_referees_deal_3_change(table, phone):
    on_version_1_then_the_chief_corrects_deal_5(table, phone)
    change_deal(phone, 3, NS_UP1)
    phone.click("#submit-result")
    phone.wait_for_selector("#conflict:not([hidden])")
    assert "已被他人更改" in phone.locator("#conflict-text").inner_text()
    # the side-by-side lists mark the deals that differ
    theirs = phone.locator("#conflict-theirs li")
    mine = phone.locator("#conflict-mine li")
    assert theirs.nth(4).get_attribute("data-diff") == "theirs"
    assert mine.nth(2).get_attribute("data-diff") == "mine"
    marked = phone.locator("#conflict li[data-diff]")
    assert marked.count() == 2, [marked.nth(i).inner_text() for i in range(marked.count())]
    said = phone.locator("#conflict-merge").inner_text()
    assert "第 5 副只在第 2 版中改动：保留" in said and "第 3 副只在本机改动" in said, said
    assert phone.locator("#conflict-choices").is_hidden()  # nothing to choose
    # the connection line never says "everything is saved" while the conflict waits
    line = phone.locator("#connection").inner_text()
    assert "均已保存" not in line and "未保存" in line, line
    phone.click("#resubmit")
    phone.wait_for_selector("#submit-status.ok")
    assert "他人的改动均保留" in phone.locator("#submit-status").inner_text()
    wait_saved(phone, 9)
    stored = versions(table)
    assert [v.number for v in stored] == [1, 2, 3]
    newest = stored[-1]
    assert newest.record["deals"][2] == NS_UP1  # the referee's change
    assert newest.record["deals"][4] == EW_UP3  # the chief's correction, kept
    assert newest.created_by == table.referee and newest.via == "table-page"
    assert "均已保存" in phone.locator("#connection").inner_text()
    # the phone now shows version 3: the chief's deal 5 among the referee's deals
    assert "东 西 南" in phone.locator("#deal-list li").nth(4).inner_text()


def test_a_deal_both_changed_waits_for_the_referees_choice(table, phone):
    on_version_1_then_the_chief_corrects_deal_5(table, phone)
    change_deal(phone, 5, NS_UP1)
    phone.click("#submit-result")
    phone.wait_for_selector("#conflict:not([hidden])")
    assert phone.locator("#conflict-theirs li").nth(4).get_attribute("data-diff") == "conflict"
    assert phone.locator("#conflict-mine li").nth(4).get_attribute("data-diff") == "conflict"
    assert "第 5 副两边都改了" in phone.locator("#conflict-merge").inner_text()
    phone.click("#resubmit")  # no choice yet: said, nothing sent
    phone.wait_for_selector("#conflict-status.error")
    assert "请先为第 5 副选择" in phone.locator("#conflict-status").inner_text()
    # the chief's correction stays unless the chief undoes it: "use mine" is not offered
    choice = phone.locator("#conflict-choices li[data-deal='5']")
    assert choice.locator(".choose-mine").is_disabled()
    assert "只有裁判长可以改" in choice.inner_text()
    phone.click("#conflict-choices li[data-deal='5'] .choose-theirs")
    phone.click("#resubmit")  # nothing of mine is left: version 2 is kept, none stored
    phone.wait_for_selector("#submit-status.ok")
    assert "第 2 版原样保留" in phone.locator("#submit-status").inner_text()
    assert phone.locator("#conflict").is_hidden()
    stored = versions(table)
    assert len(stored) == 2 and stored[-1].record["deals"][4] == EW_UP3
    assert "均已保存" in phone.locator("#connection").inner_text()


def test_a_deal_both_changed_and_another_changed_here_keeps_the_chiefs_and_adds_mine(table, phone):
    on_version_1_then_the_chief_corrects_deal_5(table, phone)
    change_deal(phone, 5, NS_UP1)
    change_deal(phone, 2, EW_UP1)
    phone.click("#submit-result")
    phone.wait_for_selector("#conflict:not([hidden])")
    phone.click("#conflict-choices li[data-deal='5'] .choose-theirs")
    phone.click("#resubmit")
    phone.wait_for_selector("#submit-status.ok")
    newest = versions(table)[-1]
    assert newest.number == 3
    assert newest.record["deals"][1] == EW_UP1 and newest.record["deals"][4] == EW_UP3


def test_a_forfeit_after_the_chiefs_correction_keeps_it_unless_the_chief_says(table, phone):
    """The referee's phone on version 1 records a forfeit (弃权) after the chief corrected
    deal 5: the 409 names the whole result as changed on both sides; "use mine" is not
    offered over the chief's correction, and keeping version 2 stores nothing."""
    on_version_1_then_the_chief_corrects_deal_5(table, phone)
    phone.on("dialog", lambda dialog: dialog.accept())  # "record this team as absent?"
    phone.locator("details:has(button[data-absent]) summary").click()
    phone.click("button[data-absent=NS]")
    phone.wait_for_selector("#conflict:not([hidden])")
    said = phone.locator("#conflict-merge").inner_text()
    assert "整个成绩两边都改了" in said, said
    assert phone.locator("#conflict-mine li").first.get_attribute("data-diff") == "conflict"
    theirs = phone.locator("#conflict-theirs li[data-diff]")  # the chief's deal 5, marked
    assert (
        theirs.count() == 1
        and phone.locator("#conflict-theirs li").nth(4).get_attribute("data-diff") == "theirs"
    )
    choice = phone.locator("#conflict-choices li[data-deal='record']")
    assert choice.locator(".choose-mine").is_disabled()
    assert "只有裁判长可以改" in choice.inner_text()
    phone.click("#resubmit")  # no choice yet: said, nothing sent
    phone.wait_for_selector("#conflict-status.error")
    choice.locator(".choose-theirs").click()
    phone.click("#resubmit")
    phone.wait_for_selector("#absent-status.ok")
    assert "第 2 版原样保留" in phone.locator("#absent-status").inner_text()
    stored = versions(table)
    assert [v.number for v in stored] == [1, 2]
    assert stored[-1].record["deals"][4] == EW_UP3 and "forfeit" not in stored[-1].record
