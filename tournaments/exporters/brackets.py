"""The bracket of a knockout stage as a PDF (A4 landscape, one section a page; public, as the
bracket page is)."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.errors import ExportError, ServiceError
from tournaments.services import brackets

from .base import PDF, Exporter
from .pdf import template_to_pdf


class BracketPdf(Exporter):
    identifier = "bracket-pdf"
    extension = "pdf"
    content_type = PDF
    public = True

    def clean(self, stage=None) -> dict:
        if stage in (None, ""):
            raise ExportError(_("Name the knockout stage (stage=…)."), "stage")
        try:
            found = brackets.knockout_stage(self.event, stage)
        except ServiceError as err:
            raise ExportError(err.message, "stage") from None
        return {"stage": found}

    def name_parts(self) -> list[str]:
        return ["bracket", str(self.params["stage"].pk)]

    def render_bytes(self) -> bytes:
        stage = self.params["stage"]
        context = {
            "event": self.event,
            "stage": stage,
            "brackets": brackets.stage_brackets(stage),
            "third_place_name": brackets.third_place_name(),
            "today": timezone.localdate(),
        }
        return template_to_pdf("pdf/bracket.html", context, "bracket.css")
