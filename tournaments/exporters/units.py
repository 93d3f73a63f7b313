"""Unit standings to Excel and PDF (public, as the team standings are)."""

from __future__ import annotations

from .base import PDF, XLSX, Exporter
from .table_pdf import render_table
from .tables import unit_standings_table
from .xlsx import workbook_bytes


class UnitStandingsXlsx(Exporter):
    identifier = "units-xlsx"
    extension = "xlsx"
    content_type = XLSX
    public = True

    def name_parts(self) -> list[str]:
        return ["unit-standings"]

    def render_bytes(self) -> bytes:
        return workbook_bytes([unit_standings_table(self.event)])


class UnitStandingsPdf(Exporter):
    identifier = "units-pdf"
    extension = "pdf"
    content_type = PDF
    public = True

    def name_parts(self) -> list[str]:
        return ["unit-standings"]

    def render_bytes(self) -> bytes:
        return render_table(unit_standings_table(self.event))
