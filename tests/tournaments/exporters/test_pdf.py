"""Standings, pairings and scoresheet PDFs: the text extracted back, Chinese included."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.factories import CHINESE_NAMES
from tests.readers import pdf_pages, pdf_text
from tournaments.errors import ExportError
from tournaments.exporters import scoresheets
from tournaments.exporters.pairings import PairingsPdf
from tournaments.exporters.scoresheets import ScoresheetsPdf
from tournaments.exporters.standings_pdf import StandingsPdf
from tournaments.exporters.table_pdf import ROWS_PER_PAGE, render_table
from tournaments.exporters.tables import Column, Table

pytestmark = pytest.mark.django_db


def test_standings_pdf_renders_chinese_team_names(chinese_event):
    with translation.override("zh-hans"):
        export = StandingsPdf(chinese_event).render()
    text = pdf_text(export.data)
    assert export.data.startswith(b"%PDF")
    assert "苏州掼蛋公开赛" in text
    for name in CHINESE_NAMES:
        assert name in text


def test_standings_pdf_after_a_round_is_titled_with_it(chinese_event):
    with translation.override("en"):
        export = StandingsPdf(chinese_event, after_round=1).render()
    assert export.filename == "suzhou-open-standings-r1.pdf"
    assert "Standings after round 1" in pdf_text(export.data)


def test_standings_pdf_names_a_bad_round(chinese_event):
    with pytest.raises(ExportError) as caught:
        StandingsPdf(chinese_event, after_round="last")
    assert caught.value.field == "after_round"


def test_pairings_pdf_lists_every_table_with_both_teams(chinese_event):
    with translation.override("en"):
        text = pdf_text(PairingsPdf(chinese_event, round=3).render().data)
    assert "Pairings of round 3" in text
    assert "龙城队" in text and "锡山队" in text and "East–West (home)" in text


def _big_table(rows: int) -> Table:
    columns = [Column("Rank", 6, True), Column("Team", 30), Column("Points", 8, True)]
    return Table("Big", "sub", columns, [(i, f"第{i}队", i % 7) for i in range(1, rows + 1)])


def test_big_table_pdf_splits_into_page_sized_blocks():
    rows = ROWS_PER_PAGE * 2 + 3
    with translation.override("en"):
        pages = pdf_pages(render_table(_big_table(rows)))
    assert len(pages) == 3
    assert "第1队" in pages[0] and f"第{ROWS_PER_PAGE}队" in pages[0]
    assert f"第{ROWS_PER_PAGE + 1}队" in pages[1] and f"第{rows}队" in pages[2]
    assert "Page 1 of 3" in pages[0] and "Page 3 of 3" in pages[2]


def test_scoresheets_one_page_per_table_with_teams_seats_and_signatures(chinese_event):
    with translation.override("en"):
        export = ScoresheetsPdf(chinese_event, round=3).render()
    pages = pdf_pages(export.data)
    assert len(pages) == 4
    first = pages[0]
    for text in (
        "苏州掼蛋公开赛",
        "Round 3 · Scoresheet",
        "龙城队",
        "锡山队",
        "龙选手1",
        "锡选手2",
    ):
        assert text in first
    for text in ("East–West captain", "North–South captain", "Referee", "1st out", "Last"):
        assert text in first
    assert "金陵队" in pages[1] and "古运河队" not in pages[1]


def test_scoresheet_grid_follows_the_game(chinese_event):
    chinese_event.game, chinese_event.preset = "tractor", "tractor"
    chinese_event.save()
    with translation.override("en"):
        text = pdf_pages(ScoresheetsPdf(chinese_event, round=3).render().data)[0]
    assert "Defenders' points" in text and "Bottom points" in text
    assert "1st out" not in text


def test_scoresheets_fast_path_matches_the_plain_document_text():
    sheets = [
        scoresheets.Sheet(
            n,
            scoresheets.Side(f"东{n}", "甲", ("a", "b")),
            scoresheets.Side(f"南{n}", "乙", ("c", "d")),
        )
        for n in range(1, 4)
    ]
    sheet_set = scoresheets.SheetSet("赛事", 2, "chengyu", "", sheets)
    with translation.override("en"):
        fast = pdf_pages(scoresheets.render_sheet_set(sheet_set))
        plain = pdf_pages(scoresheets.plain_pdf(sheet_set.header(), sheets))
    assert len(fast) == len(plain) == 3
    for fast_page, plain_page in zip(fast, plain, strict=True):
        assert set(fast_page.split()) == set(plain_page.split())
    assert "Tricks EW" in fast[0]


def test_scoresheets_of_a_round_without_tables_say_so(chinese_event):
    from tests.factories import add_round

    add_round(chinese_event, 4, [], status="published", bye=chinese_event.teams_in_order[0])
    with pytest.raises(ExportError, match="4"):
        ScoresheetsPdf(chinese_event, round=4).render()


def test_table_columns_are_padded_by_display_width_with_cjk_as_two_cells():
    from tournaments.exporters.table_pdf import cells, fit

    assert cells("龙城A") == 5
    assert fit("龙城", 6) == "龙城  " and fit(12, 4, right=True) == "  12"
    cut = fit("龙城掼蛋俱乐部代表队", 9)
    assert cut == "龙城掼蛋…" and cells(cut) == 9
