"""The chief referee's operations board for a round: states, filters (referee, state, a range
of tables), the queue of calls and disputes, late forfeits and bulk confirm."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import TemplateView

from tournaments import glossary
from tournaments.models import RefereeCall, Round
from tournaments.services import board as service
from tournaments.services import calls
from tournaments.services.audit import client_address
from tournaments.validation import whole_number

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
        return get_object_or_404(Round, event=self.event, number=self.kwargs["number"])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rnd = self.get_round()
        get = self.request.GET
        referee = get.get("referee", "").strip()[:150]
        state = get.get("state", "")
        state = state if state in service.STATES else ""
        tables = service.table_range(get.get("from", ""), get.get("to", ""))
        everything = service.read(rnd)
        zone = service.select(everything, referee, "", tables)
        rows = service.select(zone, "", state)
        for row in rows:
            row.label = STATE_LABELS[row.state]
        tally = service.counts(zone)
        context.update(
            round=rnd,
            rows=rows,
            tally=[(key, STATE_LABELS[key], tally[key]) for key in service.STATES],
            referees=sorted({name for row in everything for name in row.referees}),
            query={
                "referee": referee,
                "state": state,
                "from": tables.low or "",
                "to": tables.high or "",
            },
            # the event's halls with ranges of tables ("A厅 1-60"): a quick choice of the zone
            halls=[hall for hall in self.event.hall_list() if hall.usable],
            queue=service.queue(rnd, tables),
            late_tables=service.late_tables(rnd, tables),
            is_chief=self.may("result.correct"),
            can_answer=self.may("call.answer"),
            can_rule=self.may("forfeit.confirm"),
            waiting=service.WAITING,
            submitted=(service.SUBMITTED, service.HALF_CONFIRMED),
        )
        context["late"] = sum(len(entry.teams) for entry in context["late_tables"])
        people = {name for row in everything for name in row.referees}
        context["names"] = glossary.names_by_username(
            people | {item.by for item in context["queue"] if item.by}
        )
        return context

    def post(self, request, *args, **kwargs):
        rnd = self.get_round()
        source = client_address(request)
        action = request.POST.get("action", "confirm")
        if action == "answer":
            call = get_object_or_404(RefereeCall, round=rnd, pk=_int(request.POST.get("call")))
            calls.answer(call, request.user, source)
            messages.success(
                request, _("Call from table %(table)s answered.") % {"table": call.table_number}
            )
        elif action == "forfeits":
            done = service.confirm_forfeits(
                rnd, request.user, request.POST.getlist("team"), source=source
            )
            for reason in done.skipped:
                messages.error(request, reason)
            if done.teams:
                names = "、".join(late.team.name for late in done.teams)
                messages.success(
                    request,
                    _("Forfeits confirmed (弃权) at %(count)s tables: %(teams)s.")
                    % {"count": done.tables, "teams": names},
                )
        else:
            done, refused = service.bulk_confirm(
                rnd, request.user, request.POST.getlist("match"), source
            )
            messages.success(request, _("%(count)s results confirmed.") % {"count": done})
            for reason in refused:
                messages.error(request, reason)
        return redirect(request.get_full_path())


def _int(value) -> int:
    return whole_number(value) or 0
