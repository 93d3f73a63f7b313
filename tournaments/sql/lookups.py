"""The hot lookups, as SQL built once per process: the event of every page and API request
(with its revision), and the match of the results write path.

Every result submission, preview and confirmation looks up its match with the round and the
event. Compiling that ORM query (three models' columns, a join across two relations, a filter
on the event's slug) cost more CPU than anything else the request does after parsing, and
Django compiles it anew each time. Here the SQL is built once from the models' own field
lists (a field added to a model is selected without touching this module) and the rows become
model instances with ``from_db``, as the ORM would make them.
"""

from __future__ import annotations

from functools import cache

from django.apps import apps
from django.db import connection
from django.utils.translation import gettext_lazy as _

from tournaments.errors import NotFound

from . import roles, rows
from .revision import revision_columns


def _model(name: str):
    """A model by name, through the app registry: the statements sit under the models, which
    import tournaments/sql/ themselves."""
    return apps.get_model("tournaments", name)


@cache
def _chain() -> tuple:
    """Each row: the match, its round, the round's event."""
    return _model("Match"), _model("Round"), _model("Event")


@cache
def _sql() -> str:
    aliases = ("m", "r", "t")
    Match, Round, Event = _chain()
    EventRole = _model("EventRole")
    selected = ", ".join(
        rows.columns(model, alias)[1] for model, alias in zip(_chain(), aliases, strict=True)
    )
    # One row per role the user holds in the event (a row with NULL when none): the
    # permission check that follows then needs no query of its own.
    return (
        f"SELECT {selected}, tr.role FROM {Match._meta.db_table} m "
        f"JOIN {Round._meta.db_table} r ON r.id = m.round_id "
        f"JOIN {Event._meta.db_table} t ON t.id = r.event_id "
        f"LEFT JOIN {EventRole._meta.db_table} tr "
        "ON tr.event_id = t.id AND tr.user_id = %s "
        "WHERE m.id = %s AND t.slug = %s"
    )


def match_in_event(slug: str, match_id: int | str, user=None):
    """The match ``match_id`` of the event ``slug``, its ``round`` and ``round.event``
    loaded (one query); NotFound when there is no such match in that event. With ``user``, the
    same query reads the roles they hold in the event for the permission checks
    (tournaments.sql.roles.remember)."""
    try:
        match_id = int(match_id)
    except (TypeError, ValueError):
        raise NotFound(_("No such match in this event."), "match") from None
    known = user is not None and user.is_authenticated
    with connection.cursor() as cursor:
        cursor.execute(_sql(), [user.pk if known else None, match_id, slug])
        found = cursor.fetchall()
    if not found:
        raise NotFound(_("No such match in this event."), "match")
    made, start = [], 0
    for model in _chain():
        width = len(model._meta.concrete_fields)
        made.append(rows.instance(model, found[0][start : start + width]))
        start += width
    match, round_, event = made
    round_.event = event
    match.round = round_
    if known:
        roles.remember(user, event.pk, {row[-1] for row in found} - {None})
    return match


@cache
def _event_sql() -> str:
    Event = _model("Event")
    return (
        f"SELECT {rows.columns(Event, 'x')[1]}, {revision_columns('x.id')} "
        f"FROM {Event._meta.db_table} x WHERE x.slug = %s"
    )


def event(slug: str):
    """The event ``slug`` with its revision read in the same query (the revision its public
    answers are rendered and keyed at); NotFound when there is none."""
    with connection.cursor() as cursor:
        cursor.execute(_event_sql(), [slug])
        found = cursor.fetchone()
    if found is None:
        raise NotFound(_("No such event."))
    Event = _model("Event")
    width = len(Event._meta.concrete_fields)
    event = rows.instance(Event, found[:width])
    event.hold_revision(*found[width:])
    return event
