"""Giving and removing a user's role in an event (organiser only), each with its audit entry."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import permissions
from tournaments.errors import Code, ServiceError
from tournaments.models import Event, EventRole, Role, Team

from .audit import log_action


class RoleError(ServiceError):
    """A role that cannot be given as asked."""


def checked_role(event: Event, role: str, team: Team | None) -> Team | None:
    """Refuse a role that cannot be given as asked; the team it goes with (captains only)."""
    if role not in Role.values:
        raise RoleError(_("Choose a role of the list."), "role")
    if role == Role.CAPTAIN and team is None:
        raise RoleError(_("A captain speaks for a team: choose it."), "team")
    if role != Role.CAPTAIN:
        team = None
    if team is not None and team.event_id != event.pk:
        raise RoleError(_("This team is not in this event."), "team")
    return team


def grant(
    event: Event, by, user, role: str, team: Team | None = None, source: str = ""
) -> tuple[EventRole, bool]:
    """Give ``user`` the ``role`` in ``event`` (a captain names the team); returns the role
    and whether it is new. Giving a role the user already holds changes nothing. For the
    event's own people or a new account made for it; an account from outside the event is
    asked first (accounts.offer_role: it accepts an invitation, issue 39)."""
    permissions.require(by, event, "role.grant")
    team = checked_role(event, role, team)
    with transaction.atomic():
        granted, created = EventRole.objects.get_or_create(
            user=user, event=event, role=role, defaults={"team": team, "granted_at": timezone.now()}
        )
        if created:
            log_action(
                event,
                by,
                "role.grant",
                granted,
                data={"user": user.username, "role": role},
                source=source,
            )
    return granted, created


def revoke(role: EventRole, by, source: str = "") -> None:
    """Remove ``role`` (logged with the user and the role it was); never the event's last
    organiser role (issue 31: the last organiser could orphan the event)."""
    permissions.require(by, role.event, "role.grant")
    with transaction.atomic():
        if role.role == Role.ORGANISER:
            # the event's organiser roles locked in one order: two officials removing the
            # last two at once cannot both see the other's still there
            organisers = list(
                EventRole.objects.select_for_update()
                .filter(event=role.event, role=Role.ORGANISER)
                .order_by("pk")
                .values_list("pk", flat=True)
            )
            if organisers == [role.pk] or not set(organisers) - {role.pk}:
                raise RoleError(
                    _(
                        "An event always has an organiser: give the organiser role to "
                        "someone else before removing this one."
                    ),
                    "role",
                    Code.CONFLICT,
                )
        log_action(
            role.event,
            by,
            "role.revoke",
            role,
            data={"user": role.user.username, "role": role.role},
            source=source,
        )
        role.delete()
