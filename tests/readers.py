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
