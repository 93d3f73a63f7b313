"""The organiser's standings page: the ranking after any round, with every tiebreak."""

from __future__ import annotations

from django.views.generic import TemplateView

from tournaments.models import Round
from tournaments.standings.service import metric_labels, shown_metrics, standings_for

from .mixins import RoleRequiredMixin


def after_round_choice(value, numbers: list[int]) -> int | None:
    """The round asked for in ?after_round=N, when it is a counted round; else None (all)."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if number in numbers else None


class StandingsView(RoleRequiredMixin, TemplateView):
    template_name = "tournaments/rounds/standings.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        numbers = list(
            self.tournament.rounds.exclude(status=Round.Status.DRAFT)
            .order_by("number")
            .values_list("number", flat=True)
        )
        after = after_round_choice(self.request.GET.get("after_round"), numbers)
        metrics = [(key, label) for key, label in metric_labels(self.tournament) if key != "points"]
        rows = [
            (row, [shown_metrics(row).get(key) for key, _ in metrics])
            for row in standings_for(self.tournament, after_round=after)
        ]
        context.update(rows=rows, metrics=metrics, numbers=numbers, after_round=after)
        return context
