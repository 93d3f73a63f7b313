"""Reading exported files back: PDF text (pypdf) and xlsx sheets (openpyxl)."""

from __future__ import annotations

import io

from openpyxl import load_workbook
from pypdf import PdfReader


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages)


def pdf_pages(data: bytes) -> list[str]:
    return [page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages]


def workbook(data: bytes):
    return load_workbook(io.BytesIO(data))


def pdf_cut_text(html: str, css: str) -> list[str]:
    """The text a PDF made from ``html`` does not show in full: each line of text that runs
    past the edge of a box clipping its overflow (``overflow: hidden``). Text extraction still
    finds such text whole (the clip only hides its end), so this reads WeasyPrint's layout."""
    from weasyprint import CSS, HTML
    from weasyprint.formatting_structure import boxes

    document = HTML(string=html).render(stylesheets=[CSS(string=css)])
    cut: list[str] = []

    def walk(box, clip) -> None:
        if getattr(box, "style", None) is not None and box.style["overflow"] != "visible":
            clip = box
        if isinstance(box, boxes.TextBox) and clip is not None:
            right = clip.padding_box_x() + clip.padding_width()
            bottom = clip.padding_box_y() + clip.padding_height()
            # across: the whole run; down: its baseline (the line box may be taller than a cell)
            if box.position_x + box.width > right + 0.5 or box.position_y + box.baseline > bottom:
                cut.append(box.text)
        for child in getattr(box, "children", ()):
            walk(child, clip)

    for page in document.pages:
        walk(page._page_box, None)
    return cut
