"""POST from a table page: call the chief referee to the table (呼叫裁判).

Two doors, one service (``services.calls.raise_call``): the table referee's page
(``/t/<slug>/table/<n>/``, logged in) and the table's device (``/table/<key>/``, its key).
Either way back to the table page with the answer as a message (the deals kept on the phone
stay: table.js keeps them in the phone's storage).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import View

from tournaments.services import calls, results, table_keys

from .mixins import RoleRequiredMixin, ServiceErrorMixin


def _raised(request, match, actor) -> None:
    call, new = calls.raise_call(match, actor, request.POST.get("note", ""))
    if new:
        messages.success(
            request,
            _("The chief referee is called to table %(table)s.") % {"table": call.table_number},
        )
    else:
        messages.info(
            request,
            _("The call from table %(table)s is already waiting for the chief referee.")
            % {"table": call.table_number},
        )


class TableCallView(RoleRequiredMixin, View):
    """/t/<slug>/table/<n>/call/: the table referee (or the chief) calls the chief referee."""

    action = "call.raise"

    def post(self, request, slug, table):
        match = results.table_match(self.event, table)
        if match is None:
            raise Http404(_("No match at this table in the current round."))
        _raised(request, match, results.Actor.from_request(request))
        return redirect(self.error_url())

    def error_url(self) -> str:
        return reverse("tournaments:table-entry", args=[self.event.slug, self.kwargs["table"]])


class TableKeyCallView(ServiceErrorMixin, View):
    """/table/<key>/call/: the table's device calls the chief referee (no login; a live key)."""

    def post(self, request, key):
        table_key = table_keys.live_key(key)
        match = results.table_match(table_key.event, table_key.table_number)
        if match is None:
            raise Http404(_("No match at this table in the current round."))
        _raised(request, match, results.Actor.from_request(request, table_key=table_key))
        return redirect(self.error_url())

    def error_url(self) -> str:
        return reverse("tournaments:table-key-entry", args=[self.kwargs["key"]])
