"""The roles a user holds in an event: on every request of an official (each result
submission); the ORM's compile of this one-table filter cost more than the query."""

from __future__ import annotations

from functools import cache

from django.apps import apps
from django.db import connection

CACHED = "_paisai_roles"  # on the user object: {event id: frozenset of roles}


@cache
def _sql() -> str:
    table = apps.get_model("tournaments", "EventRole")._meta.db_table
    return f"SELECT role FROM {table} WHERE user_id = %s AND event_id = %s"


def roles_of(user_id: int, event_id: int) -> frozenset[str]:
    """The roles of user ``user_id`` in event ``event_id`` (one query)."""
    with connection.cursor() as cursor:
        cursor.execute(_sql(), [user_id, event_id])
        return frozenset(role for (role,) in cursor.fetchall())


def remember(user, event_id: int, roles) -> None:
    """Keep ``roles`` as those ``user`` holds in event ``event_id`` (read by a query that
    fetched them with other rows, tournaments/sql/lookups.py), for :func:`held`."""
    user.__dict__.setdefault(CACHED, {})[event_id] = frozenset(roles)


def held(user, event_id: int) -> frozenset[str]:
    """The roles ``user`` holds in event ``event_id``, kept on the user object per event (one
    query the first time)."""
    kept = user.__dict__.setdefault(CACHED, {})
    if event_id not in kept:
        kept[event_id] = roles_of(user.pk, event_id)
    return kept[event_id]
