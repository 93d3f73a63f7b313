"""The organiser's standings page: the ranking after any round, with every tiebreak."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from tournaments.models import LotDraw, Round
from tournaments.rules_line import rules_line
from tournaments.services import lots
from tournaments.services.audit import client_address
from tournaments.services.stage_standings import official_standings
from tournaments.standings.service import metric_labels, shown_metrics
from tournaments.validation import whole_number

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
    action = "standings.view"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        numbers = list(
            self.event.rounds.exclude(status=Round.Status.DRAFT)
            .order_by("number")
            .values_list("number", flat=True)
        )
        after = after_round_choice(self.request.GET.get("after_round"), numbers)
        metrics = [(key, label) for key, label in metric_labels(self.event) if key != "points"]
        # the official ranking (the public page's, the exports', the prize list's), as it
        # stood after the round asked for; a knockout's places show no points beside them
        rows = [
            (
                row,
                [
                    None if row.knockout or row.absent else shown_metrics(row).get(key)
                    for key, _ in metrics
                ],
            )
            for row in official_standings(self.event, after_round=after)
        ]
        context.update(rows=rows, metrics=metrics, numbers=numbers, after_round=after)
        context["rules_line"] = rules_line(self.event)
        latest = after is None or after == (numbers[-1] if numbers else None)
        context.update(
            tied=lots.tied_groups(self.event) if latest and lots.may_draw(self.event) else [],
            can_draw=self.may("standings.draw_lots"),
            cut_ties=lots.open_cut_ties(self.event),
            draws=LotDraw.objects.filter(event=self.event).order_by("-drawn_at", "-pk"),
        )
        return context


class DrawLotsView(RoleRequiredMixin, TemplateView):
    """POST: draw lots among the teams tied at ``rank`` (the chief referee or the organiser)."""

    action = "standings.draw_lots"
    http_method_names = ["post"]

    def error_url(self) -> str:
        return reverse("tournaments:manage-standings", args=[self.event.slug])

    def post(self, request, *args, **kwargs):
        try:
            rank = int(request.POST.get("rank", ""))
        except ValueError:
            rank = 0
        draw = lots.draw_tie(self.event, request.user, rank, source=client_address(request))
        messages.success(
            request,
            _("Lots drawn (seed %(seed)s): %(order)s.")
            % {"seed": draw.seed, "order": " > ".join(draw.names)},
        )
        return redirect(self.error_url())


class DrawCutLotsView(DrawLotsView):
    """POST: draw lots among the teams tied at a cut line (qualification, knockout seeding,
    prize band), named by ``team`` ids (the chief referee or the organiser)."""

    def post(self, request, *args, **kwargs):
        teams = [n for n in map(whole_number, request.POST.getlist("team")) if n is not None]
        draw = lots.draw_cut(self.event, request.user, teams, source=client_address(request))
        messages.success(
            request,
            _("Lots drawn (seed %(seed)s): %(order)s.")
            % {"seed": draw.seed, "order": " > ".join(draw.names)},
        )
        return redirect(self.error_url())
