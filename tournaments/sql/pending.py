"""Whether a round still has a played match without a counting result: on every
confirmation. Its ORM form (an exclude across the reverse relation) cost more CPU to compile
than the database needs to answer it.

It walks the round's matches (index round, table) and probes the one-counting-version partial
index, from the table just decided onwards, then from the first table: results come in roughly
in table order at a venue (and in the bench), and a walk from table 1 would probe every table
already decided, twice a result (a round's last results cost the walk of every table).
"""

from __future__ import annotations

from functools import cache

from django.apps import apps
from django.db import connection


@cache
def _sql() -> tuple[str, str]:
    # tables named through the app registry: the models import tournaments/sql/ themselves
    matches = apps.get_model("tournaments", "Match")._meta.db_table
    versions = apps.get_model("tournaments", "ResultVersion")._meta.db_table
    undecided = (
        f"SELECT 1 FROM {matches} m WHERE m.round_id = %s AND m.away_id IS NOT NULL {{tables}} "
        f"AND NOT EXISTS (SELECT 1 FROM {versions} v WHERE v.match_id = m.id AND v.is_counting) "
        "LIMIT 1"  # no ORDER BY: a sort would probe the whole range before the first row
    )
    anywhere = undecided.format(tables="")
    from_table = (  # COALESCE looks at the second walk only when the first finds nothing
        f"SELECT COALESCE(({undecided.format(tables='AND m.table_number > %s')}), "
        f"({undecided.format(tables='AND m.table_number <= %s')}))"
    )
    return anywhere, from_table


def has_pending(round_id: int, table: int | None = None) -> bool:
    """True while a played match of the round has no counting version (looked for from the
    tables after ``table`` onwards first, when given)."""
    anywhere, from_table = _sql()
    with connection.cursor() as cursor:
        if table is None:
            cursor.execute(anywhere, [round_id])
            return cursor.fetchone() is not None
        cursor.execute(from_table, [round_id, table, round_id, table])
        return cursor.fetchone()[0] is not None
