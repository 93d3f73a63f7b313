"""Shared view plumbing: load the tournament from the URL and enforce per-tournament roles."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from tournaments import permissions
from tournaments.models import Tournament


class TournamentMixin:
    """Sets ``self.tournament`` from the ``slug`` URL argument (404 when unknown)."""

    tournament: Tournament

    def dispatch(self, request, *args, **kwargs):
        self.tournament = get_object_or_404(Tournament, slug=kwargs["slug"])
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["tournament"] = self.tournament
        context["my_roles"] = permissions.user_roles(self.request.user, self.tournament)
        context["can_manage"] = permissions.can_manage(self.request.user, self.tournament)
        return context


class RoleRequiredMixin(TournamentMixin):
    """403 unless the user holds one of ``required_roles`` in *this* tournament."""

    required_roles: tuple[str, ...] = permissions.MANAGE_ROLES

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        self.tournament = get_object_or_404(Tournament, slug=kwargs["slug"])
        if not permissions.has_role(request.user, self.tournament, self.required_roles):
            raise PermissionDenied
        return super(TournamentMixin, self).dispatch(request, *args, **kwargs)
