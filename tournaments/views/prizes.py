"""The prize list page: edit the awards, see who gets them, print the list and certificates."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from tournaments.errors import ExportError
from tournaments.exporters.prizes import is_final, prize_list
from tournaments.services import prizes as service

from .mixins import RoleRequiredMixin


class PrizesView(RoleRequiredMixin, TemplateView):
    template_name = "tournaments/prizes/index.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        # ties at a prize band's line (a lot pending) are listed as waiting, never as "the
        # standings are empty": the teams not concerned keep their awards meanwhile
        waiting: list = []
        try:
            context["prizes"] = prize_list(self.event, waiting)
        except ExportError as error:
            context.update(prizes=[], error=error.message)
        context["waiting"] = waiting
        context["provisional"] = not is_final(self.event)
        context.setdefault("awards", self.event.awards)
        return context

    def post(self, request, *args, **kwargs):
        text = request.POST.get("awards", "")
        try:
            service.set_awards(self.event, request.user, text)
        except ExportError as error:
            messages.error(request, error.message)
            return self.render_to_response(self.get_context_data(awards=text), status=400)
        messages.success(request, _("Awards saved."))
        return redirect("tournaments:prizes", slug=self.event.slug)
