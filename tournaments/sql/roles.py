"""The roles a user holds in an event: on every request of an official (each result
submission); the ORM's compile of this one-table filter cost more than the query."""

from __future__ import annotations

from functools import cache

from django.db import connection


@cache
def _sql() -> str:
    from tournaments.models import EventRole

    table = EventRole._meta.db_table
    return f"SELECT role FROM {table} WHERE user_id = %s AND event_id = %s"


def roles_of(user_id: int, event_id: int) -> frozenset[str]:
    """The roles of user ``user_id`` in event ``event_id`` (one query)."""
    with connection.cursor() as cursor:
        cursor.execute(_sql(), [user_id, event_id])
        return frozenset(role for (role,) in cursor.fetchall())
