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


class Download:
    """What a person gets from an export link once its job has run: the file (200), or the
    job's refusal (400, its message as the content)."""

    def __init__(self, status_code: int, content: bytes, response=None):
        self.status_code, self.content, self.response = status_code, content, response

    def __getitem__(self, header: str) -> str:
        return self.response[header]


def download(client, path: str, data=None, **extra) -> Download:
    """GET an export link as a page does and follow it through to the file: an official's
    export starts a job (Celery is eager in tests: it runs when the request's transaction
    commits) and its page offers the file; a public export answers "being made" (202) until
    its job has run. Other answers (a refusal, a login redirect) are returned as they are."""
    from django.test import TestCase

    with TestCase.captureOnCommitCallbacks(execute=True):
        response = client.get(path, data, **extra)
    if response.status_code == 202:
        response = client.get(path, data, **extra)
    if response.status_code == 302 and "/manage/exports/jobs/" in response.url:
        status = client.get(response.url + "status/", **extra).json()
        if status["download"] is None:
            return Download(400, status["error"].encode(), response)
        file = client.get(status["download"])
        return Download(file.status_code, b"".join(file.streaming_content), file)
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return Download(response.status_code, content, response)
