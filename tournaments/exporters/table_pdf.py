"""Any :class:`Table` as a printable PDF, fast enough for 5,000 rows.

WeasyPrint lays out one long HTML table very slowly (every cell is a box with borders).
Here each page is a fixed block holding one text block per column, the rows of that page
separated by newlines (``white-space: pre``); ruled stripes come from one background. Pages
can be rendered in chunks over several processes and merged.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from . import pdf
from .tables import Table

PAGE_WIDTH_MM = 186  # A4 (210 mm) less 12 mm margins
ROWS_PER_PAGE = 50
CSS = "table.css"
CHUNK_PAGES = 12


@dataclass(frozen=True)
class ColumnBlock:
    left: float
    width: float
    numeric: bool
    label: str
    text: str


def _cell(value) -> str:
    if value is None:
        return ""
    return str(value).replace("\n", " ").replace("\r", " ")


def _geometry(table: Table) -> list[tuple[float, float]]:
    total = sum(column.width for column in table.columns) or 1
    gap = 2.0
    usable = PAGE_WIDTH_MM - gap * (len(table.columns) - 1)
    x, places = 0.0, []
    for column in table.columns:
        width = usable * column.width / total
        places.append((round(x, 2), round(width, 2)))
        x += width + gap
    return places


def page_contexts(table: Table) -> list[dict]:
    places = _geometry(table)
    rows = table.rows
    count = max(1, -(-len(rows) // ROWS_PER_PAGE))
    pages = []
    for index in range(count):
        chunk = rows[index * ROWS_PER_PAGE : (index + 1) * ROWS_PER_PAGE]
        blocks = [
            ColumnBlock(
                left,
                width,
                column.numeric,
                column.label,
                "\n".join(_cell(row[position]) for row in chunk),
            )
            for position, (column, (left, width)) in enumerate(
                zip(table.columns, places, strict=True)
            )
        ]
        pages.append(
            {
                "blocks": blocks,
                "number": index + 1,
                "count": count,
                "page_label": _("Page %(page)s of %(pages)s") % {"page": index + 1, "pages": count},
            }
        )
    return pages


def pages_html(table: Table, pages: list[dict]) -> str:
    return render_to_string("pdf/table.html", {"table": table, "pages": pages})


def render_table(table: Table, processes: int = 1) -> bytes:
    """The table as PDF bytes; with ``processes`` > 1, chunks of pages render in parallel."""
    pages = page_contexts(table)
    if processes <= 1 or len(pages) <= CHUNK_PAGES:
        return pdf.html_to_pdf(pages_html(table, pages), CSS)
    size = max(CHUNK_PAGES, -(-len(pages) // (processes * 2)))
    htmls = [pages_html(table, pages[i : i + size]) for i in range(0, len(pages), size)]
    return pdf.merge(pdf.render_many(htmls, CSS, processes))
