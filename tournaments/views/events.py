"""The event's status page: where it stands, finish it (organiser), reopen it (chief)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from tournaments.models import Round
from tournaments.services import events as service
from tournaments.services import stage_standings
from tournaments.services.audit import client_address

from .mixins import RoleRequiredMixin


class EventStatusView(RoleRequiredMixin, TemplateView):
    template_name = "tournaments/events/status.html"
    action = "event.status"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rounds = self.event.rounds.order_by("number")
        context.update(
            rounds=rounds,
            counts=stage_standings.round_counts(self.event),
            open_rounds=[r.number for r in rounds if r.status != Round.Status.FINALISED],
            can_finish=self.may("event.finish"),
            can_reopen=self.may("event.reopen"),
        )
        return context

    def post(self, request, *args, **kwargs):
        if request.POST.get("action") == "reopen":
            service.reopen(
                self.event,
                request.user,
                request.POST.get("reason", ""),
                client_address(request),
            )
            messages.success(request, _("The event is open again."))
        else:
            service.finish(self.event, request.user, client_address(request))
            messages.success(request, _("The event is finished: its results are frozen."))
        return redirect(self.error_url())

    def error_url(self) -> str:
        return reverse("tournaments:event-status", args=[self.event.slug])
