"""The arbitration home, the chief referee's and the committee's dashboards, a team's record."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.views.generic import TemplateView

from arbitration.services import dashboards
from tournaments.models import Team

from .base import ArbitrationView


class IndexView(ArbitrationView, TemplateView):
    template_name = "arbitration/index.html"
    action = "arbitration.view"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            teams=Team.objects.filter(event=self.event).order_by("name"),
            is_chief=self.may("incident.rule"),
            is_referee=self.may("incident.log"),
            is_committee=self.may("appeal.vote"),
        )
        return context


class ChiefDashboardView(ArbitrationView, TemplateView):
    template_name = "arbitration/chief_dashboard.html"
    action = "dashboard.chief"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(dashboards.chief_dashboard(self.event))
        return context


class CommitteeDashboardView(ArbitrationView, TemplateView):
    template_name = "arbitration/committee_dashboard.html"
    action = "dashboard.committee"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(dashboards.committee_dashboard(self.event, self.request.user))
        return context


class TeamRecordView(ArbitrationView, TemplateView):
    """A team's disciplinary record: incidents, rulings (revoked ones struck through), appeals."""

    template_name = "arbitration/team_record.html"

    def load(self, pk, **kwargs):
        self.team = get_object_or_404(Team, pk=pk, event=self.event)

    def permitted(self) -> bool:
        return self.sees_team_matters([self.team.pk])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(team=self.team, **dashboards.team_record(self.team))
        return context
