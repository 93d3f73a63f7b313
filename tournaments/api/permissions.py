"""The API's one permission: the URL's event and the permission table (tournaments.permissions).

A view names the action its writes need (``write_action``) and, where reading is not public,
the action its reads need (``read_action``). Finer rights (a table, a team, a table key) are
the services' ``permissions.require`` calls, which read the same table.
"""

from __future__ import annotations

from rest_framework import permissions as drf

from tournaments import permissions


class ActionPermission(drf.BasePermission):
    """Safe methods need the view's ``read_action`` (None: public), others its ``write_action``
    (None: the service decides), in the URL's event."""

    def has_permission(self, request, view):
        event = view.get_event() if hasattr(view, "get_event") else None
        if event is None:
            return True
        safe = request.method in drf.SAFE_METHODS
        action = getattr(view, "read_action" if safe else "write_action", None)
        if action is None or permissions.may(request.user, event, action):
            return True
        self.message = permissions.ACTIONS[action].refusal
        return False
