"""Any :class:`Table` as a printable PDF, fast enough for 5,000 rows.

WeasyPrint lays out one long HTML table very slowly: every cell is a box, and its time goes
per box and per text item. Here a page is one block of text in a monospaced CJK font, one
line per row, the columns padded to fixed widths (a CJK character takes two cells), with
striped rows from one background. A 50-row page is then 51 lines instead of 400+ boxes.
One process renders 5,000 rows in about 5 s warm (8 s from a cold start, most of it loading
the CJK font), so pages are not split over processes: a fresh process would pay that font
load again, and merging the parts costs more than it saves.
"""

from __future__ import annotations

import unicodedata

from django.template.loader import render_to_string
from django.utils.translation import gettext

from . import pdf
from .tables import Table

PAGE_WIDTH_MM = 186  # A4 (210 mm) less 12 mm margins
PT_MM = 0.3528
MAX_FONT_PT = 9.0
ROWS_PER_PAGE = 50
GAP = 2  # cells between columns
CSS = "table.css"


def cells(text: str) -> int:
    """Width in monospace cells: wide (CJK) characters take two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def fit(value, width: int, right: bool = False) -> str:
    """The value padded (or cut, with an ellipsis) to exactly ``width`` cells."""
    text = "" if value is None else str(value).replace("\n", " ").replace("\r", " ")
    if cells(text) > width:
        cut, used = [], 0
        for char in text:
            size = cells(char)
            if used + size > width - 1:
                break
            cut.append(char)
            used += size
        text = "".join(cut) + "…"
    pad = " " * (width - cells(text))
    return pad + text if right else text + pad


def _widths(table: Table) -> list[int]:
    return [max(int(round(column.width)), cells(column.label), 2) for column in table.columns]


def line(table: Table, widths: list[int], values) -> str:
    gap = " " * GAP
    return gap.join(
        fit(value, width, column.numeric)
        for value, width, column in zip(values, widths, table.columns, strict=True)
    ).rstrip()


def font_size(widths: list[int]) -> float:
    """The font size (pt) at which a full line fits the page width."""
    total = sum(widths) + GAP * (len(widths) - 1)
    cell_mm = PAGE_WIDTH_MM / total
    return round(min(MAX_FONT_PT, 2 * cell_mm / PT_MM), 2)


def page_contexts(table: Table) -> list[dict]:
    widths = _widths(table)
    header = line(table, widths, [column.label for column in table.columns])
    size = font_size(widths)
    rows = table.rows
    count = max(1, -(-len(rows) // ROWS_PER_PAGE))
    return [
        {
            "header": header,
            "text": "\n".join(
                line(table, widths, row)
                for row in rows[index * ROWS_PER_PAGE : (index + 1) * ROWS_PER_PAGE]
            ),
            "font_size": size,
            "page_label": gettext("Page %(page)s of %(pages)s")
            % {"page": index + 1, "pages": count},
        }
        for index in range(count)
    ]


def pages_html(table: Table, pages: list[dict]) -> str:
    return render_to_string("pdf/table.html", {"table": table, "pages": pages})


def render_table(table: Table) -> bytes:
    """The table as PDF bytes."""
    return pdf.html_to_pdf(pages_html(table, page_contexts(table)), CSS)
