"""Pairings of one round to PDF and to .xlsx."""

from __future__ import annotations

from tournaments.models import Round

from .base import PDF, XLSX, Exporter, event_round
from .table_pdf import render_table
from .tables import pairings_table
from .xlsx import workbook_bytes


class PairingsExporter(Exporter):
    """Base of both formats: the ``round`` parameter must name a round of the event."""

    public = True

    def clean(self, round=None) -> dict:  # noqa: A002 - the parameter's public name
        return {"round": event_round(self.event, round)}

    def is_public(self) -> bool:
        """A draft pairing is not public yet."""
        return self.params["round"].status != Round.Status.DRAFT

    def name_parts(self) -> list[str]:
        return ["pairings", f"r{self.params['round'].number}"]


class PairingsPdf(PairingsExporter):
    identifier = "pairings-pdf"
    extension = "pdf"
    content_type = PDF

    def render_bytes(self) -> bytes:
        return render_table(pairings_table(self.params["round"]))


class PairingsXlsx(PairingsExporter):
    identifier = "pairings-xlsx"
    extension = "xlsx"
    content_type = XLSX

    def render_bytes(self) -> bytes:
        return workbook_bytes([pairings_table(self.params["round"])])
