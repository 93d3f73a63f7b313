"""Plumbing shared by the arbitration pages: per-event access through EventMixin,
service refusals through its one mapping (ServiceErrorMixin)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.views.generic import FormView

from tournaments import permissions
from tournaments.views.mixins import EventMixin


class ArbitrationView(EventMixin):
    """Logged-in users who may do ``action`` in this event (or whom ``permitted()`` lets in)."""

    action = "incident.view"

    def captain_of(self, team_ids) -> bool:
        return bool(permissions.captain_team_ids(self.request.user, self.event) & set(team_ids))

    def sees_team_matters(self, team_ids) -> bool:
        """The one rule of the pages and the API (permissions.sees_team_matters)."""
        return permissions.sees_team_matters(self.request.user, self.event, team_ids)


class ActionView(ArbitrationView, FormView):
    """A POST that calls one service; a refusal shows on the form (with its status), a
    forbidden one is a 403."""

    http_method_names = ["get", "post"]
    success_message = ""

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        if getattr(self, "form_needs_event", False):
            kwargs["event"] = self.event
        return kwargs

    def form_valid(self, form):
        target = self.perform(form.cleaned_data)
        if self.success_message:
            messages.success(self.request, self.success_message)
        return redirect(target)

    def perform(self, data: dict) -> str:
        raise NotImplementedError
