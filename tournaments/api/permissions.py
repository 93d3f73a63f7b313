"""DRF permissions that mirror tournaments.permissions, per tournament."""

from __future__ import annotations

from rest_framework import permissions as drf

from tournaments import permissions


class TournamentRolePermission(drf.BasePermission):
    """Safe methods are public; writes need one of the view's ``write_roles`` in the URL's event.

    A view may set ``read_roles`` to protect reading too (e.g. the roles list).
    """

    def has_permission(self, request, view):
        tournament = view.get_tournament() if hasattr(view, "get_tournament") else None
        if tournament is None:
            return True
        read_roles = getattr(view, "read_roles", None)
        if request.method in drf.SAFE_METHODS and read_roles is None:
            return True
        roles = read_roles if request.method in drf.SAFE_METHODS else view.write_roles
        return permissions.has_role(request.user, tournament, roles)
