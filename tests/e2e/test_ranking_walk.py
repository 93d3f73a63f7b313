"""One ranking, walked (issue 35): the organiser and the chief referee of a staged event (Swiss
into a knockout with a third-place match, tests/tournaments/ranking/staged.py) each log in on a
390×844 phone in Chinese, start from their home and follow links only; they read the ranking on
the standings page, download the standings workbook (its 最终 sheet), the standings PDF, the
prize list and the certificates from the pages that offer them (each a job), and the public
standings page; every one lists the teams in the official order
(``stage_standings.official_standings``), the places the official ones."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.readers import pdf_pages, pdf_text, workbook
from tests.tournaments.ranking.staged import staged_event
from tests.tournaments.ranking.test_one_ranking import names_in
from tournaments.services import events, prizes, stage_standings

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

AWARDS = "冠军 1\n亚军 2\n季军 3\n殿军 4\n优胜奖 5-6"


def page_places(page, table: str) -> list[tuple[str, str]]:
    """(place as shown, team name) of each row of the page's table ``table``."""
    rows = page.locator(f"table#{table} tbody tr")
    found = []
    for index in range(rows.count()):
        cells = rows.nth(index).locator("td")
        if cells.count() < 2:
            continue
        name = names_in(cells.nth(1).inner_text())
        found.append((cells.nth(0).inner_text().strip(), name[0] if name else ""))
    return found


def fetch_file(page, selector: str) -> bytes:
    """Follow the link or button ``selector`` to its file: at once, through the job's page
    (its Download button once the job is done), or through the "being made" page that opens
    the file by itself."""
    try:
        with page.expect_download(timeout=8_000) as info:
            page.click(selector)
        return Path(info.value.path()).read_bytes()
    except PlaywrightTimeout:
        pass
    if page.locator("#job-download").count():
        page.wait_for_selector("#job-download:not([hidden])", timeout=120_000)
        with page.expect_download(timeout=60_000) as info:
            page.click("#job-download")
        return Path(info.value.path()).read_bytes()
    with page.expect_download(timeout=120_000) as info:  # the page reloads itself
        pass
    return Path(info.value.path()).read_bytes()


def test_the_organiser_and_the_chief_read_one_ranking_by_links(live_server, browser, login, media):
    s = staged_event("earlier_stage")
    prizes.set_awards(s.event, s.organiser, AWARDS)
    events.finish(s.event, s.organiser)
    slug = s.event.slug
    official = [
        (row.name, row.rank, row.shared) for row in stage_standings.official_standings(s.event)
    ]
    order = [name for name, *_ in official]
    shown_place = {
        name: "—" if rank is None else f"{rank}{'=' if shared else ''}"
        for name, rank, shared in official
    }
    prized = [name for name, rank, _ in official if rank is not None and rank <= 6]
    seen: dict[str, list] = {}

    for who, user in (("organiser", s.organiser), ("chief", s.chief)):
        context = browser.new_context(
            viewport={"width": 390, "height": 844},
            is_mobile=True,
            has_touch=True,
            locale="zh-CN",
            accept_downloads=True,
        )
        page = context.new_page()
        page.set_default_timeout(15_000)
        login(page, live_server, user)
        # the home → the event's console (organiser) or the chief's desk
        home = f"/t/{slug}/manage/" if who == "organiser" else f"/t/{slug}/chief/"
        page.click(f'main a[href="{home}"]')
        page.wait_for_load_state()
        page.click(f'main a[href="/t/{slug}/manage/standings/"]')
        page.wait_for_load_state()
        rows = page_places(page, "standings")
        seen[f"{who}: 排名 page"] = rows
        assert [name for _, name in rows] == order, (who, rows)
        assert all(place == shown_place[name] for place, name in rows), (who, rows)

        page.go_back()
        page.click(f'main a[href="/t/{slug}/manage/exports/"]')
        page.wait_for_load_state()
        book = workbook(fetch_file(page, f'a[href="/t/{slug}/export/standings-xlsx/"]'))
        final = book.worksheets[-1]
        listed = [row[1] for row in final.iter_rows(min_row=4, values_only=True) if row[1]]
        seen[f"{who}: standings xlsx, sheet {final.title}"] = listed
        assert listed == order, (who, final.title, listed)

        back_to(page, f"/t/{slug}/manage/exports/")
        page.click("#export-standings button[type=submit]")  # the PDF, current standings
        text = pdf_text(_job_file(page))
        seen[f"{who}: standings PDF"] = names_in(text)
        assert names_in(text) == order, who

        if who == "organiser":  # the prize list and the certificates: the console's
            back_to(page, f"/t/{slug}/manage/exports/")
            page.click('a[href="/"]')  # the site's home, in the header
            page.click(f'main a[href="{home}"]')
            page.click(f'main a[href="/t/{slug}/manage/prizes/"]')
            page.wait_for_load_state()
            cells = page.locator("table#prizes tbody tr td:nth-child(3)")
            listed = [cells.nth(i).inner_text().strip() for i in range(cells.count())]
            seen["prize list page"] = listed
            assert listed == prized, listed
            prize_text = pdf_text(fetch_file(page, "#prizes-pdf"))
            table = re.split(r"奖项 名次", prize_text, maxsplit=1)[1]
            seen["prize list PDF"] = names_in(table)
            assert names_in(table) == prized
            back_to(page, f"/t/{slug}/manage/prizes/")
            pages = pdf_pages(fetch_file(page, "#certificates-pdf"))
            seen["certificates PDF"] = [names_in(p)[0] for p in pages]
            assert [names_in(p)[0] for p in pages] == prized
        context.close()

    # the public standings, from the front page by links
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    page = context.new_page()
    page.goto(f"{live_server.url}/")  # the front page: the one address a visitor types
    page.click(f'a[href="/t/{slug}/"]')
    page.click(f'a[href="/t/{slug}/standings/"]')
    rows = page_places(page, "standings")
    seen["public standings page"] = rows
    assert [name for _, name in rows] == order, rows
    context.close()
    print("one ranking, walked:", {where: len(v) for where, v in seen.items()}, order)


def back_to(page, path: str) -> None:
    """Back to the page ``path`` by the way a person would: nothing when the browser is still
    on it (a file came at once), the link to it when the page shows one (the job's page), else
    the browser's back button."""
    if page.url.split("?")[0].endswith(path):
        return
    link = page.locator(f'main a[href="{path}"]')
    if link.count():
        link.first.click()
    else:
        page.go_back()
    page.wait_for_load_state()
    assert page.url.split("?")[0].endswith(path), page.url


def _job_file(page) -> bytes:
    """The file of the job page the browser is on, once the job is done."""
    page.wait_for_selector("#job-download:not([hidden])", timeout=120_000)
    with page.expect_download(timeout=60_000) as info:
        page.click("#job-download")
    return Path(info.value.path()).read_bytes()
