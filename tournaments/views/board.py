"""The chief referee's operations board for a round: states, filters, bulk confirm."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import TemplateView

from tournaments import glossary
from tournaments.models import Round
from tournaments.services import board as service
from tournaments.services import checkin
from tournaments.services.audit import client_address

from .mixins import RoleRequiredMixin

STATE_LABELS = {
    service.NOT_STARTED: gettext_lazy("not started"),
    service.SUBMITTED: gettext_lazy("submitted, awaiting confirmation"),
    service.HALF_CONFIRMED: gettext_lazy("one team confirmed"),
    service.CHANGED: gettext_lazy("changed, awaiting confirmation"),
    service.CONFIRMED: gettext_lazy("confirmed"),
    service.BYE: gettext_lazy("bye"),
}


class BoardView(RoleRequiredMixin, TemplateView):
    template_name = "tournaments/board/index.html"
    action = "result.board"

    def get_round(self) -> Round:
        return get_object_or_404(Round, tournament=self.tournament, number=self.kwargs["number"])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rnd = self.get_round()
        referee = self.request.GET.get("referee", "").strip()[:150]
        state = self.request.GET.get("state", "")
        state = state if state in service.STATES else ""
        everything = service.board(rnd)
        rows = service.board(rnd, referee, state) if referee or state else everything
        for row in rows:
            row.label = STATE_LABELS[row.state]
        tally = service.counts(everything)
        context.update(
            round=rnd,
            rows=rows,
            tally=[(key, STATE_LABELS[key], tally[key]) for key in service.STATES],
            referees=sorted({name for row in everything for name in row.referees}),
            names=glossary.names_by_username(name for row in everything for name in row.referees),
            query={"referee": referee, "state": state},
            late=len(checkin.late_teams(rnd)),
            is_chief=self.may("result.correct"),
            waiting=service.WAITING,
        )
        return context

    def post(self, request, *args, **kwargs):
        rnd = self.get_round()
        done, refused = service.bulk_confirm(
            rnd, request.user, request.POST.getlist("match"), client_address(request)
        )
        messages.success(request, _("%(count)s results confirmed.") % {"count": done})
        for reason in refused:
            messages.error(request, reason)
        return redirect(request.get_full_path())
