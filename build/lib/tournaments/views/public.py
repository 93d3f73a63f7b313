"""Pages anyone may see without logging in."""

from __future__ import annotations

from django.views.generic import ListView, TemplateView

from tournaments import permissions
from tournaments.models import TableAssignment, Tournament, TournamentRole

from .mixins import TournamentMixin


class HomeView(ListView):
    template_name = "tournaments/home.html"
    context_object_name = "tournaments"

    def get_queryset(self):
        return Tournament.objects.all()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        user = self.request.user
        context["can_create"] = permissions.can_create_tournament(user)
        if user.is_authenticated:
            context["my_roles"] = TournamentRole.objects.filter(user=user).select_related(
                "tournament", "team"
            )
        return context


class TournamentDetailView(TournamentMixin, TemplateView):
    template_name = "tournaments/tournament_detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["rounds"] = self.tournament.rounds.all()
        context["team_count"] = self.tournament.teams.count()
        user = self.request.user
        if user.is_authenticated:
            context["my_tables"] = list(
                TableAssignment.objects.filter(tournament=self.tournament, user=user)
                .order_by("table_number")
                .values_list("table_number", flat=True)
            )
        return context
