"""Pages anyone may see without logging in."""

from __future__ import annotations

from django.views.generic import ListView, TemplateView

from tournaments import permissions
from tournaments.models import Event, TableAssignment
from tournaments.services import accounts, homes

from .mixins import EventMixin


class HomeView(ListView):
    template_name = "tournaments/home.html"
    context_object_name = "events"

    def get_queryset(self):
        return Event.objects.all()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        user = self.request.user
        context["can_create"] = permissions.can_create_event(user)
        if user.is_authenticated:
            context["my_homes"] = homes.homes_of(user)
            context["invitations"] = accounts.open_invitations(user).count()
        return context


class EventDetailView(EventMixin, TemplateView):
    template_name = "tournaments/event_detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["rounds"] = self.event.rounds.all()
        context["team_count"] = self.event.teams.count()
        user = self.request.user
        if user.is_authenticated:
            context["my_homes"] = homes.homes_in(user, self.event)
            context["my_tables"] = list(
                TableAssignment.objects.filter(event=self.event, user=user)
                .order_by("table_number")
                .values_list("table_number", flat=True)
            )
        return context
