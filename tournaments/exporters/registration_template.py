"""The registration import's template: the .xlsx a registrar fills in and uploads (its
columns and example row are the reader's, tournaments/services/registration_sheet.py)."""

from __future__ import annotations

import io

from openpyxl import Workbook

from tournaments.services.registration_sheet import TEMPLATE_EXAMPLE, TEMPLATE_HEADERS


def template_workbook() -> bytes:
    """The .xlsx template offered for download."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "teams"
    sheet.append(TEMPLATE_HEADERS)
    sheet.append([*TEMPLATE_EXAMPLE[:2], *TEMPLATE_EXAMPLE[2], 1])
    for letter, width in zip("ABCDEFG", (24, 24, 16, 16, 10, 20, 20), strict=True):
        sheet.column_dimensions[letter].width = width
    sheet.freeze_panes = "A2"
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()
