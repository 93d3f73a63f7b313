"""Taps and seconds for the chief referee at 500 teams (250 tables), on a 390×844 phone in
Chinese: forfeiting one late team among 250 tables, and confirming 250 submitted results on
the operations board.

What it does (a pytest run of this file: pytest-django's live server and test database, the
factories of tests/factories.py, Playwright on Debian's Chromium):
  1. Round 1 of a 500-team event is in play, started 10:30 ago; 499 teams are marked seated,
     one (table 137's North–South team) is not, nothing is entered yet. From the operations
     board the chief taps "迟到" → the attendance page, ticks the one listed team, confirms,
     answers the dialog. Prints the taps and the seconds from the board being shown to the
     forfeit stored (the database is asked).
  2. Round 2 of the same event: every table's referee has submitted a result (bulk copies of
     one service entry, not timed). On the board the chief taps "全选已提交", confirms,
     answers the dialog. Prints the taps, the seconds from the board being shown to all 250
     counting, and the share from the dialog's OK (one POST that confirms 250 versions, then
     the board of 250 rows shown again).
  3. Prints the load average (the machine is shared: other work skews every figure).

Run: ``.venv/bin/python -m bench.board_volume`` (needs PostgreSQL via DATABASE_URL or
SQLite, and /usr/bin/chromium). Not a timed assert: figures for the note.
"""

from __future__ import annotations

import os
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
TABLES = int(os.environ.get("BENCH_TABLES", "250"))
LATE_TABLE = min(137, TABLES)


@pytest.mark.django_db(transaction=True)
def test_board_volume(live_server):
    from django.utils import timezone
    from playwright.sync_api import sync_playwright

    from tests import factories
    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
    from tournaments.models import ResultVersion, Round, Seating

    event = factories.event(teams=TABLES * 2)
    teams = list(event.teams.order_by("pk"))
    pairs = list(zip(teams[::2], teams[1::2], strict=True))
    rnd = factories.round_(event, 1, pairs, status=Round.Status.IN_PLAY)
    Round.objects.filter(pk=rnd.pk).update(started_at=timezone.now() - timedelta(minutes=10.5))
    late = rnd.matches.get(table_number=LATE_TABLE)
    Seating.objects.bulk_create(
        [Seating(round=rnd, team=team, by_name="bench") for team in teams if team != late.away]
    )
    chief = factories.chief_of(event)
    referee = factories.grant(factories.user(), event, "table_referee", tables=range(1, TABLES + 1))
    board = f"{live_server.url}/t/{event.slug}/manage/rounds/1/board/"
    figures = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        context = browser.new_context(
            viewport={"width": 390, "height": 844},
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            locale="zh-CN",
        )
        page = context.new_page()
        page.set_default_timeout(120_000)
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", chief.username)
        page.fill("input[name=password]", "pw-" + chief.username)
        page.click("main button[type=submit]")
        page.wait_for_load_state()

        # 1. one late team among 250 tables
        taps = 0
        page.goto(board)
        shown = time.monotonic()
        page.click(f"a[href='/t/{event.slug}/manage/rounds/1/attendance/']")
        taps += 1
        page.wait_for_selector("#late-teams")
        assert page.locator("#late-teams tbody tr").count() == 1
        page.check("#late-teams input[name=team]")
        taps += 1
        page.click("#confirm-forfeits")
        taps += 1
        page.locator("dialog.confirm-dialog .confirm-ok").click()
        taps += 1
        page.wait_for_selector("ul.messages")
        figures["forfeit"] = (taps, time.monotonic() - shown)
        version = ResultVersion.objects.get(match=late)
        assert version.is_counting and version.record["forfeit"] == "NS"

        # 2. 250 submitted results confirmed on the board (round 2: every table submitted)
        second = factories.round_(event, 2, pairs, status=Round.Status.IN_PLAY)
        factories.submitted_results(list(second.matches.order_by("table_number")), referee)
        taps = 0
        page.goto(board.replace("/rounds/1/", "/rounds/2/"))
        shown = time.monotonic()
        page.check("#select-submitted")
        taps += 1
        page.click("#bulk-confirm")
        taps += 1
        posted = time.monotonic()  # the last tap: the dialog's OK sends the request
        page.locator("dialog.confirm-dialog .confirm-ok").click()
        taps += 1
        page.wait_for_selector("ul.messages")
        done = time.monotonic()
        figures["confirm"] = (taps, done - shown, done - posted)
        counting = ResultVersion.objects.filter(match__round=second, is_counting=True).count()
        assert counting == TABLES
        said = page.locator("ul.messages li.success").first.inner_text()
        assert str(TABLES) in said, said
        context.close()
        browser.close()
    from django.db import connections

    connections.close_all()
    load = os.getloadavg()
    print(
        f"\n{TABLES} tables, chief on a 390×844 phone (zh-CN), load average "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    taps, seconds = figures["forfeit"]
    print(
        f"forfeit one late team among {TABLES} tables: {taps} taps, {seconds:.1f} s "
        f"(board shown → forfeit stored)"
    )
    taps, seconds, server = figures["confirm"]
    print(
        f"confirm {TABLES} submitted results: {taps} taps, {seconds:.1f} s (board shown → all "
        f"counting; from the OK tap to the board shown again {server:.1f} s)"
    )


def main() -> None:
    root = Path(__file__).resolve().parent.parent
    sys.exit(
        pytest.main(
            [
                str(Path(__file__)),
                "-s",
                "-q",
                "-p",
                "no:randomly",
                "-o",
                "python_files=board_volume.py",
                "--rootdir",
                str(root),
            ]
        )
    )


if __name__ == "__main__":
    main()
