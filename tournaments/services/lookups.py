"""The hot lookups of the results write path, as SQL built once per process.

Every result submission, preview and confirmation looks up its match with the round and the
event. Compiling that ORM query (three models' columns, a join across two relations, a filter
on the event's slug) cost more CPU than anything else the request does after parsing, and
Django compiles it anew each time. Here the SQL is built once from the models' own field
lists (a field added to a model is selected without touching this module) and the rows become
model instances with ``from_db``, as the ORM would make them.
"""

from __future__ import annotations

from functools import cache

from django.db import connection
from django.http import Http404

from tournaments.models import Match, Round, Tournament

CHAIN = (Match, Round, Tournament)  # each row: the match, its round, the round's event


@cache
def _columns() -> tuple[list[list[str]], str]:
    """(attribute names per model, the SELECT)."""
    aliases = ("m", "r", "t")
    names, selected = [], []
    for model, alias in zip(CHAIN, aliases, strict=True):
        fields = model._meta.concrete_fields
        names.append([field.attname for field in fields])
        selected += [f'{alias}."{field.column}"' for field in fields]
    sql = (
        f"SELECT {', '.join(selected)} FROM {Match._meta.db_table} m "
        f"JOIN {Round._meta.db_table} r ON r.id = m.round_id "
        f"JOIN {Tournament._meta.db_table} t ON t.id = r.tournament_id "
        "WHERE m.id = %s AND t.slug = %s"
    )
    return names, sql


def match_in_event(slug: str, match_id: int | str) -> Match:
    """The match ``match_id`` of the event ``slug``, its ``round`` and ``round.tournament``
    loaded (one query); Http404 when there is no such match in that event."""
    try:
        match_id = int(match_id)
    except (TypeError, ValueError):
        raise Http404 from None
    names, sql = _columns()
    with connection.cursor() as cursor:
        cursor.execute(sql, [match_id, slug])
        row = cursor.fetchone()
    if row is None:
        raise Http404
    values = iter(row)
    made = []
    for model, attnames in zip(CHAIN, names, strict=True):
        fields = model._meta.concrete_fields
        raw = [next(values) for _ in attnames]
        made.append(model.from_db(connection.alias, attnames, _converted(fields, raw)))
    match, round_, tournament = made
    round_.tournament = tournament
    match.round = round_
    return match


def _converted(fields, values: list) -> list:
    """Database values as the fields' Python values (JSON text to objects, …), through the
    converters the ORM's compiler applies (the backend's, then the field's)."""
    out = []
    for field, value in zip(fields, values, strict=True):
        col, converters = _converters(field.model, field.name)
        for converter in converters:
            value = converter(value, col, connection)
        out.append(value)
    return out


@cache
def _converters(model, name: str) -> tuple:
    col = model._meta.get_field(name).get_col(model._meta.db_table)
    return col, (*connection.ops.get_db_converters(col), *col.get_db_converters(connection))
