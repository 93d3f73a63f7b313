"""Per-tournament permissions, enforced on the server for every page and API call.

A user's rights come from TournamentRole rows of *that* tournament only; a referee of
event A has no rights in event B. Superusers may do everything (back office).
"""

from __future__ import annotations

from collections.abc import Iterable

from tournaments.models import Role, TableAssignment, Tournament, TournamentRole

MANAGE_ROLES = (Role.ORGANISER,)
REFEREE_ROLES = (Role.CHIEF_REFEREE, Role.TABLE_REFEREE)
OFFICIAL_ROLES = (Role.ORGANISER, Role.CHIEF_REFEREE, Role.TABLE_REFEREE, Role.COMMITTEE)


def user_roles(user, tournament: Tournament) -> frozenset[str]:
    """The roles ``user`` holds in ``tournament`` (cached on the user object per tournament)."""
    if user is None or not user.is_authenticated:
        return frozenset()
    cache = user.__dict__.setdefault("_paisai_roles", {})
    if tournament.pk not in cache:
        cache[tournament.pk] = frozenset(
            TournamentRole.objects.filter(user=user, tournament=tournament).values_list(
                "role", flat=True
            )
        )
    return cache[tournament.pk]


def has_role(user, tournament: Tournament, roles: Iterable[str]) -> bool:
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return bool(user_roles(user, tournament) & set(roles))


def can_manage(user, tournament: Tournament) -> bool:
    return has_role(user, tournament, MANAGE_ROLES)


def can_create_tournament(user) -> bool:
    """Site administrators, users given the event-creator right, or every signed-up user
    when the site says so (settings.PAISAI_OPEN_EVENT_CREATION)."""
    from django.conf import settings

    return bool(
        user is not None
        and user.is_authenticated
        and (
            user.is_superuser
            or settings.PAISAI_OPEN_EVENT_CREATION
            or user.has_perm("tournaments.add_tournament")
        )
    )


def captain_team_ids(user, tournament: Tournament) -> set[int]:
    if user is None or not user.is_authenticated:
        return set()
    return set(
        TournamentRole.objects.filter(
            user=user, tournament=tournament, role=Role.CAPTAIN
        ).values_list("team_id", flat=True)
    )


def can_write_table(user, tournament: Tournament, table_number: int | None) -> bool:
    """Chief referees write every table; a table referee only the tables assigned to them."""
    if has_role(user, tournament, (Role.CHIEF_REFEREE,)):
        return True
    if table_number is None or not has_role(user, tournament, (Role.TABLE_REFEREE,)):
        return False
    return TableAssignment.objects.filter(
        tournament=tournament, user=user, table_number=table_number
    ).exists()
