"""Standings to Excel: one sheet per finished round, then the current (final) standings."""

from __future__ import annotations

from .base import XLSX, Exporter
from .tables import finished_round_numbers, standings_table
from .xlsx import workbook_bytes


class StandingsXlsx(Exporter):
    identifier = "standings-xlsx"
    extension = "xlsx"
    content_type = XLSX
    public = True

    def name_parts(self) -> list[str]:
        return ["standings"]

    def render_bytes(self) -> bytes:
        numbers = finished_round_numbers(self.event)
        tables = [standings_table(self.event, number) for number in numbers]
        tables.append(standings_table(self.event, None))
        return workbook_bytes(tables)
