"""The public unit standings page (单位团体排名)."""

from __future__ import annotations

from django.views.generic import TemplateView

from tournaments.services.units import team_names, unit_keys, unit_standings_for
from tournaments.standings.service import metric_labels

from .public_pages import PublicMixin


class UnitStandingsPage(PublicMixin, TemplateView):
    template_name = "tournaments/public/units.html"
    cache_kind = "units"
    downloads = (("units-xlsx", "Excel"), ("units-pdf", "PDF"))

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        keys = unit_keys(self.event)
        labels = dict(metric_labels(self.event))
        names = team_names(self.event)
        rows = [
            {
                "row": row,
                "metrics": [row.metrics.get(key) for key in keys],
                "teams": [names.get(team, "") for team in row.teams],
            }
            for row in unit_standings_for(self.event)
        ]
        context.update(
            rows=rows,
            labels=[labels.get(key, key) for key in keys],
            best=self.event.get_preset().unit_best_teams,
        )
        return context
