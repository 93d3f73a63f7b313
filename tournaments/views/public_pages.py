"""Public pages, no login: pairings (searchable), live standings, team history, projector."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from tournaments.exporters.tables import clean_number
from tournaments.models import Team
from tournaments.services import public
from tournaments.standings.service import metric_labels, standings_for

from .mixins import TournamentMixin

REFRESH_SECONDS = 60


class PublicMixin(TournamentMixin):
    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["refresh_seconds"] = REFRESH_SECONDS
        return context


class PairingsPage(PublicMixin, TemplateView):
    template_name = "tournaments/public/pairings.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        query = self.request.GET.get("q", "")[:100]
        rnd = public.public_round(self.tournament, self.request.GET.get("round"))
        context.update(
            round=rnd,
            query=query,
            rows=public.pairing_rows(rnd, query) if rnd else [],
            rounds=self.tournament.rounds.exclude(status="draft").values_list("number", flat=True),
        )
        return context


class StandingsPage(PublicMixin, TemplateView):
    template_name = "tournaments/public/standings.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        labels = [(key, label) for key, label in metric_labels(self.tournament) if key != "points"]
        rows = standings_for(self.tournament)
        context.update(
            rows=[
                {
                    "row": row,
                    "metrics": [clean_number(row.metrics.get(key)) for key, _label in labels],
                }
                for row in rows
            ],
            labels=labels,
            round=public.current_round(self.tournament),
        )
        return context


class TeamPage(PublicMixin, TemplateView):
    template_name = "tournaments/public/team.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        team = get_object_or_404(
            Team.objects.select_related("unit").prefetch_related("players"),
            pk=self.kwargs["pk"],
            tournament=self.tournament,
        )
        history = public.team_history(team)
        ranks = [(row["round"], row["rank"]) for row in history if row["rank"] is not None]
        context.update(
            team=team,
            history=history,
            chart=public.rank_chart(ranks, self.tournament.teams.count()),
        )
        return context


class ProjectorPage(PublicMixin, TemplateView):
    template_name = "tournaments/public/projector.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rnd = public.current_round(self.tournament)
        context.update(
            round=rnd,
            clock=public.clock(rnd),
            rows=public.pairing_rows(rnd) if rnd else [],
            warning_minutes=self.tournament.get_preset().warning_minutes,
            **clock_messages(self.tournament),
        )
        return context


def clock_messages(tournament) -> dict:
    """What the projector says in the last minutes and at the end (SPEC section 2; the minutes
    and what happens at time are preset settings)."""
    preset = tournament.get_preset()
    minutes = preset.warning_minutes
    if preset.time_up == "one_more_deal":
        warning = _("Last %(n)s minutes: referees warn the tables; then one more deal.")
        over = _("Time is up: play one more deal.")
    else:
        warning = _("Last %(n)s minutes.")
        over = _("Time is up: finish the deal in play.")
    return {"msg_warning": warning % {"n": minutes}, "msg_over": over}
