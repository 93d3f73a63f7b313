"""Standings to PDF (after a given round, or the current standings)."""

from __future__ import annotations

from .base import PDF, Exporter, event_round
from .table_pdf import render_table
from .tables import standings_table


class StandingsPdf(Exporter):
    identifier = "standings-pdf"
    extension = "pdf"
    content_type = PDF
    public = True

    def clean(self, after_round=None) -> dict:
        if after_round in (None, ""):
            return {"after_round": None}
        return {"after_round": event_round(self.event, after_round, "after_round").number}

    def name_parts(self) -> list[str]:
        after = self.params["after_round"]
        return ["standings"] if after is None else ["standings", f"r{after}"]

    def render_bytes(self) -> bytes:
        """Two steps for the progress bar: the standings, then the PDF."""
        self.progress(0, 2)
        table = standings_table(self.event, self.params["after_round"])
        self.progress(1, 2)
        data = render_table(table)
        self.progress(2, 2)
        return data
