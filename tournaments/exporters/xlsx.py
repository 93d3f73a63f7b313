"""Tables to .xlsx sheets: typed cells, column widths, a frozen header (openpyxl write-only).

Text is always text: a team or unit named ``=HYPERLINK(…)`` is written as a string cell
with Excel's quote prefix (openpyxl would otherwise write any string starting with ``=`` as
a formula, and Excel evaluates ``+ - @`` too), never as a formula; numbers stay numbers.
"""

from __future__ import annotations

import io
import re

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from .tables import Table

HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill("solid", fgColor="DDE2EA")
TITLE_FONT = Font(bold=True, size=13)
SHEET_NAME_BAD = re.compile(r"[\\/*?:\[\]]")
HEADER_ROWS = 3  # title, subtitle, column labels
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def text_cell(sheet, value: str) -> WriteOnlyCell:
    """A string cell, whatever its first character (no formula, no illegal XML character)."""
    cell = WriteOnlyCell(sheet, value=ILLEGAL_CHARACTERS_RE.sub("", value))
    cell.data_type = "s"
    if value.startswith(FORMULA_START):
        cell.quotePrefix = True  # Excel shows it, and keeps it on editing, as text
    return cell


def safe_row(sheet, values) -> list:
    """The row's strings as text cells; numbers and blanks as they are."""
    return [text_cell(sheet, value) if isinstance(value, str) else value for value in values]


def sheet_title(name: str, taken: set[str]) -> str:
    """A valid, unique Excel sheet name (31 characters, none of \\ / * ? : [ ])."""
    base = SHEET_NAME_BAD.sub("-", name).strip() or "Sheet"
    title, n = base[:31], 2
    while title in taken:
        suffix = f" ({n})"
        title, n = base[: 31 - len(suffix)] + suffix, n + 1
    taken.add(title)
    return title


def add_sheet(workbook: Workbook, table: Table, taken: set[str]) -> None:
    sheet = workbook.create_sheet(sheet_title(table.sheet_name or table.title, taken))
    for index, column in enumerate(table.columns, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = column.width
    sheet.freeze_panes = f"A{HEADER_ROWS + 1}"
    title = text_cell(sheet, table.title)
    title.font = TITLE_FONT
    sheet.append([title])
    # the note (a standings table's rules line) beside the subtitle, in the third column (the
    # rows keep their places: title, subtitle, column labels), and in the printed page's header
    sheet.append(safe_row(sheet, [table.subtitle, *([None, table.note] if table.note else [])]))
    if table.note:
        sheet.oddHeader.center.text = table.note.replace("&", "&&")
    header = []
    for column in table.columns:
        cell = text_cell(sheet, column.label)
        cell.font, cell.fill = HEADER_FONT, HEADER_FILL
        if column.numeric:
            cell.alignment = Alignment(horizontal="right")
        header.append(cell)
    sheet.append(header)
    for row in table.rows:
        sheet.append(safe_row(sheet, row))


def workbook_bytes(tables: list[Table]) -> bytes:
    workbook = Workbook(write_only=True)
    taken: set[str] = set()
    for table in tables:
        add_sheet(workbook, table, taken)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()
