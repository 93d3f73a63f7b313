"""The public bracket page of a knockout stage (phone first; cached per event revision)."""

from __future__ import annotations

from django.views.generic import TemplateView

from tournaments.services import brackets

from .public_pages import PublicMixin


class BracketPage(PublicMixin, TemplateView):
    """/t/<slug>/stages/<pk>/bracket/: every section's bracket, round by round."""

    template_name = "tournaments/public/bracket.html"
    cache_kind = "bracket"
    downloads = (("bracket-pdf", "PDF"),)

    def cache_params(self) -> dict:
        return {"stage": self.kwargs["pk"]}

    def download_params(self) -> dict:
        return {"stage": str(self.kwargs["pk"])}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        stage = brackets.knockout_stage(self.event, self.kwargs["pk"])
        context.update(
            stage=stage,
            brackets=brackets.stage_brackets(stage),
            third_place_name=brackets.third_place_name(),
        )
        return context
