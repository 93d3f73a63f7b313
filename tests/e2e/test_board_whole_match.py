"""Issue 35, states enforced where they are shown, walked as the chief on a 390×844 zh-CN
phone from the chief's home, links only: the board of an idiom-chain round where table 1
holds a record of 2 deals (of 3), table 2 a whole match, table 3 a disputed one. The
incomplete row is marked and has no bulk-confirm tick, nor has the disputed row; "select
all submitted" and bulk confirm count only table 2; table 1's match page says why and
offers no confirm."""

from __future__ import annotations

import pytest

from tests import factories
from tests.e2e.conftest import confirm_dialog

pytestmark = pytest.mark.django_db(transaction=True)


def idioms(*ew_tricks):
    return {"game": "chengyu", "deals": [{"tricks": {"EW": ew, "NS": 13 - ew}} for ew in ew_tricks]}


@pytest.fixture
def chain():
    from tournaments.models import Round
    from tournaments.services import disputes, result_entry, results

    event = factories.event(teams=6, game="chengyu")
    teams = list(event.teams.order_by("name"))
    rnd = factories.round_(
        event, 1, [(teams[i], teams[i + 1]) for i in (0, 2, 4)], status=Round.Status.IN_PLAY
    )
    referee = factories.grant(factories.user("ref-chain"), event, "table_referee", tables=[1, 2, 3])
    chief = factories.chief_of(event)
    for n, record in ((1, idioms(8, 9)), (2, idioms(8, 9, 4)), (3, idioms(8, 9, 4))):
        result_entry.submit(rnd.matches.get(table_number=n), record, results.Actor(referee), 0)
    third = rnd.matches.get(table_number=3)
    captain = factories.grant(factories.user("cap-chain"), event, "captain", team=third.home)
    disputes.raise_dispute(third, 1, factories.actor(captain), "第 2 副是南北")
    return event, rnd, chief


def follow(page, selector):
    target = page.locator(selector)
    assert target.count() == 1, f"{target.count()} × {selector} on {page.url}"
    with page.expect_navigation():
        target.click()


def test_the_chief_walks_to_the_board_incomplete_and_disputed_rows_are_not_confirmable(
    chain, live_server, phone, login
):
    from tournaments.models import ResultVersion

    event, rnd, chief = chain
    login(phone, live_server, chief)
    phone.goto(f"{live_server.url}/")
    follow(phone, "#my-homes a[data-role=chief_referee]")
    assert "第 3 桌 · 成绩异议" in phone.locator("main").inner_text()  # the dispute waits
    follow(phone, "#desk-round-1 a.btn:not(.secondary)")  # the round's operations board
    assert "/board/" in phone.url

    def row(n):
        return phone.locator(f"#board tr[data-table='{n}']")

    incomplete = row(1).locator("[data-why=incomplete]")
    assert incomplete.is_visible() and "应打 3 副，已打 2 副" in incomplete.inner_text()
    assert row(1).locator("input[name=match]").count() == 0
    disputed = row(3).locator("[data-why=disputed]")
    assert disputed.is_visible() and "裁判长" in disputed.inner_text()
    assert row(3).locator("input[name=match]").count() == 0
    assert row(2).locator("input[name=match]").count() == 1
    assert row(2).locator("[data-why]").count() == 0
    phone.check("#select-submitted")  # select all: only the whole, undisputed match
    assert phone.locator("#board input[name=match]:checked").count() == 1
    phone.click("#bulk-confirm")
    with phone.expect_navigation():
        confirm_dialog(phone, "第 2 桌")
    counting = ResultVersion.objects.filter(match__round=rnd, is_counting=True)
    assert [v.match.table_number for v in counting] == [2]
    # the incomplete record's own page says why and offers no confirm
    follow(phone, "#board tr[data-table='1'] td.num a")
    assert phone.locator("#incomplete").is_visible()
    assert "应打 3 副，已打 2 副" in phone.locator("#incomplete").inner_text()
    assert phone.locator("#confirm-latest").count() == 0
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width  # nothing wider than the phone
