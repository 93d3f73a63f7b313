"""Every role's home in an event: the chief's desk (and the counts it polls), the table
referee's tables, the captain's match and rulings. The front page links them
(``services.homes.homes_of``); the organiser's home is the console, the committee's the open
appeals (arbitration)."""

from __future__ import annotations

from django.http import JsonResponse
from django.views.generic import TemplateView, View

from tournaments.services import homes

from .mixins import EventMixin


class ChiefDeskView(EventMixin, TemplateView):
    """Late teams, calls and disputes, every round's board with its counts, incidents and
    appeals in progress; the counts refresh themselves (static/js/chief_desk.js)."""

    template_name = "tournaments/homes/chief.html"
    action = "home.chief"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(homes.chief_desk(self.event, self.request.user))
        context.update(
            can_rule=self.may("forfeit.confirm"),
            can_audit=self.may("audit.view"),
            can_export=self.may("export.run"),
            can_keys=self.may("table_key.manage"),
            can_status=self.may("event.status"),
            can_standings=self.may("standings.view"),
            can_unlock=self.may("login.unlock"),
            can_committee=self.may("dashboard.committee"),
        )
        return context


class ChiefDeskCountsView(EventMixin, View):
    """The desk's counts as JSON: ``{"counts": {"late": 2, "queue": 1, "r3-submitted": 7 …}}``."""

    action = "home.chief"

    def get(self, request, *args, **kwargs):
        response = JsonResponse({"counts": homes.desk_counts(self.event, request.user)})
        response["Cache-Control"] = "no-store"
        return response


class RefereeHomeView(EventMixin, TemplateView):
    """My tables: each table assigned to me, its state this round and what to do next."""

    template_name = "tournaments/homes/referee.html"
    action = "home.referee"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rnd, tables = homes.referee_tables(self.event, self.request.user)
        context.update(
            round=rnd,
            tables=tables,
            is_chief=self.may("home.chief"),
            panels=homes.panels("referee", self.event, self.request.user),
        )
        return context


class CaptainHomeView(EventMixin, TemplateView):
    """My match (read the deals, confirm or dispute: the match page) and my team's rulings
    with the appeal button and its deadline (a panel of the arbitration app)."""

    template_name = "tournaments/homes/captain.html"
    action = "home.captain"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        teams, now, before = homes.captain_matches(self.event, self.request.user)
        context.update(
            teams=teams,
            current=now,
            earlier=before,
            panels=homes.panels("captain", self.event, self.request.user),
        )
        return context
