"""The event's status page: where it stands, finish it (organiser), reopen it (chief)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from tournaments import permissions
from tournaments.models import Role, Round
from tournaments.services import events as service
from tournaments.services.audit import client_address
from tournaments.services.round_close import RoundCloseError

from .mixins import RoleRequiredMixin


class EventStatusView(RoleRequiredMixin, TemplateView):
    template_name = "tournaments/events/status.html"
    required_roles = (Role.ORGANISER, Role.CHIEF_REFEREE)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rounds = self.tournament.rounds.order_by("number")
        user = self.request.user
        context.update(
            rounds=rounds,
            open_rounds=[r.number for r in rounds if r.status != Round.Status.FINALISED],
            can_finish=permissions.can_manage(user, self.tournament),
            can_reopen=permissions.has_role(user, self.tournament, (Role.CHIEF_REFEREE,)),
        )
        return context

    def post(self, request, *args, **kwargs):
        try:
            if request.POST.get("action") == "reopen":
                service.reopen(self.tournament, request.user, request.POST.get("reason", ""),
                               client_address(request))  # fmt: skip
                messages.success(request, _("The event is open again."))
            else:
                service.finish(self.tournament, request.user, client_address(request))
                messages.success(request, _("The event is finished: its results are frozen."))
        except RoundCloseError as error:
            messages.error(request, error.message)
        return redirect("tournaments:event-status", slug=self.tournament.slug)
