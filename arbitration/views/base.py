"""Plumbing shared by the arbitration pages: per-tournament access, service errors on forms."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.views.generic import FormView

from arbitration.services import ArbitrationError, ArbitrationForbidden
from tournaments import permissions
from tournaments.models import Role, Tournament
from tournaments.views.mixins import TournamentMixin

OFFICIALS = permissions.OFFICIAL_ROLES
REFEREES = permissions.REFEREE_ROLES
CHIEF = (Role.CHIEF_REFEREE,)


class ArbitrationView(TournamentMixin):
    """Logged-in users holding one of ``required_roles`` in this event (or ``permitted()``)."""

    required_roles: tuple[str, ...] = OFFICIALS

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        self.tournament = get_object_or_404(Tournament, slug=kwargs["slug"])
        self.load(**kwargs)
        if not self.permitted():
            raise PermissionDenied
        return super(TournamentMixin, self).dispatch(request, *args, **kwargs)

    def load(self, **kwargs) -> None:
        """Load the object of the page (404 when it is not in this event)."""

    def permitted(self) -> bool:
        return permissions.has_role(self.request.user, self.tournament, self.required_roles)

    def has(self, *roles: str) -> bool:
        return permissions.has_role(self.request.user, self.tournament, roles)

    def captain_of(self, team_ids) -> bool:
        return bool(
            permissions.captain_team_ids(self.request.user, self.tournament) & set(team_ids)
        )


def form_error(form, err: ArbitrationError) -> None:
    form.add_error(err.field if err.field in form.fields else None, err.message)


class ActionView(ArbitrationView, FormView):
    """A POST that calls one service; a refusal shows on the form, a forbidden one is a 403."""

    http_method_names = ["get", "post"]
    success_message = ""

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        if getattr(self, "form_needs_tournament", False):
            kwargs["tournament"] = self.tournament
        return kwargs

    def form_valid(self, form):
        try:
            target = self.perform(form.cleaned_data)
        except ArbitrationForbidden:
            raise PermissionDenied from None
        except ArbitrationError as err:
            form_error(form, err)
            return self.form_invalid(form)
        if self.success_message:
            messages.success(self.request, self.success_message)
        return redirect(target)

    def perform(self, data: dict) -> str:
        raise NotImplementedError
