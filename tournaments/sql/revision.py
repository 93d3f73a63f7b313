"""An event's revision in SQL: read on every public request (the ORM's compile of these
subqueries cost 1 ms of CPU a public request, bench/public_load.py), bumped by every change
of what the public sees (tournaments.freshness decides when; this module says how)."""

from __future__ import annotations

import time
from functools import cache

from django.apps import apps
from django.db import connection


def _table() -> str:
    # by the app registry: the models import this module (Event.revision)
    return apps.get_model("tournaments", "EventRevision")._meta.db_table


def revision_columns(event_id: str) -> str:
    """Two SQL columns: the revision and the time of the last bump of the event ``event_id``
    (SQL: a parameter, or a column of the query)."""
    where = f"FROM {_table()} er WHERE er.event_id = {event_id}"
    total = f"CAST(COALESCE((SELECT SUM(er.bumps) {where}), 0) AS BIGINT)"
    return f"{total}, (SELECT MAX(er.at) {where})"


@cache
def _current_sql() -> str:
    return f"SELECT {revision_columns('%s')}"


def current(event_id: int | None) -> tuple[int, object]:
    """(revision, time of the last bump as the database sends it) of an event now."""
    if event_id is None:
        return 0, None
    with connection.cursor() as cursor:
        cursor.execute(_current_sql(), [event_id, event_id])
        return cursor.fetchone()


def bump_sql(rows: str) -> str:
    """The one statement that bumps event revisions: ``rows`` are the VALUES
    ``(event id, shard, 1, time)``, as parameters or written out. A shard's row is made by
    its first bump (both PostgreSQL and SQLite take ON CONFLICT … DO UPDATE)."""
    table = _table()
    return (
        f"INSERT INTO {table} (event_id, shard, bumps, at) VALUES {rows} "
        f"ON CONFLICT (event_id, shard) DO UPDATE SET bumps = {table}.bumps + 1, "
        "at = excluded.at"
    )


@cache
def one_bump_sql() -> str:
    """The bump of one counter: parameters (event id, shard, time)."""
    return bump_sql("(%s, %s, 1, %s)")


def bump(event_id: int, shard: int, when) -> None:
    """Bump one counter of the event in the current transaction."""
    with connection.cursor() as cursor:
        cursor.execute(one_bump_sql(), [event_id, shard, when])


def bump_and_commit(event_ids: list[int], shard: int, when) -> None:
    """The bump ``…; COMMIT`` in one simple-protocol query (integers and a timestamp written
    out, no parameters; never prepared). Django's commit that follows finds the transaction
    committed and sends nothing (psycopg skips COMMIT on an idle connection); its on-commit
    hooks run as usual. A failed COMMIT raises here, inside the block: nothing is committed."""
    at = when.isoformat()
    rows = ", ".join(f"({int(pk)}, {int(shard)}, 1, '{at}'::timestamptz)" for pk in event_ids)
    sql = bump_sql(rows) + "; COMMIT"
    started = time.monotonic()
    with connection.wrap_database_errors, connection.connection.cursor() as cursor:
        cursor.execute(sql, prepare=False)  # Django's errors, as from its own cursor
    if connection.queries_logged:  # seen by the debug toolbar and CaptureQueriesContext
        took = time.monotonic() - started
        connection.queries_log.append({"sql": sql, "time": f"{took:.3f}"})
