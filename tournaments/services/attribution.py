"""Who did it, as each reader may see it. Officials of the event see usernames and addresses;
the public (and captains) see a role instead of a username and no address."""

from __future__ import annotations

from django.utils.translation import gettext

from tournaments import glossary, permissions
from tournaments.models import Event, EventRole


def sees_identities(user, event: Event) -> bool:
    return bool(getattr(user, "is_staff", False)) or permissions.may(user, event, "identity.view")


def public_labels(event: Event) -> dict[str, str]:
    """username → the public name of their role in the event."""
    held: dict[str, set[str]] = {}
    rows = EventRole.objects.filter(event=event).values_list("user__username", "role")
    for username, role in rows:
        held.setdefault(username, set()).add(role)
    return {
        username: glossary.word(
            glossary.ROLES, next(r for r in permissions.PUBLIC_ROLE_ORDER if r in roles)
        )
        for username, roles in held.items()
    }


def public_name(username: str | None, labels: dict[str, str], via: str = "") -> str:
    if via == "table-key":
        return gettext("Table device")
    if not username:
        return ""
    return labels.get(username, gettext("Official"))


def anonymise_version(data: dict, labels: dict[str, str]) -> dict:
    """A serialised version (and its confirmations) as the public sees it."""
    data["created_by"] = public_name(data.get("created_by"), labels, data.get("via", ""))
    if data.get("confirmed_by"):
        data["confirmed_by"] = public_name(data["confirmed_by"], labels)
    data["source"] = ""
    for confirmation in data.get("confirmations", ()):
        confirmation["user"] = public_name(confirmation.get("user"), labels)
        confirmation["source"] = ""
    return data
