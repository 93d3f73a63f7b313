"""Public freshness: the one module through which every change of what the public sees moves
the event's revision (issue 29; the caching it keeps honest: tournaments.standings.service,
"Caching", and tournaments.services.public_cache).

Each event has a revision in the database (``Event.revision``: the sum of its
``EventRevision`` counters), bumped by :func:`invalidate` in the same transaction as every
change of a public model's rows, so a cached answer can never be newer than its key nor one
older than the database be served. Every write path goes through here:

- a row of a public model saved or deleted: the signals (:func:`connect`);
- a queryset write on a public model, ``update()``, ``delete()``, ``bulk_create()``,
  ``bulk_update()``: :class:`PublicQuerySet`, through :class:`PublicManager`, the default
  manager of every public model, bumps the events whose rows it wrote, so no service has to
  remember to;
- a transaction that changes several matches (a ruling and its escalation, an appeal) runs in
  :func:`revision_batch`: one bump, as its last statement, so a revision counter is always
  locked after the match rows (no deadlock against a confirmation).

A public model is one whose rows a public answer reads; tests/tournaments/test_freshness.py
renders every public answer, lists the tables it read, and fails when one of them is not a
public model's (or a bulk write moves a public answer without moving the revision).
Services never call :func:`invalidate` themselves (tests/test_one_home.py).
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from contextvars import ContextVar

from django.db import connection, models, transaction
from django.utils import timezone

from tournaments.sql import revision as revision_statements

# --- the revision ------------------------------------------------------------------------

_batch: ContextVar[set | None] = ContextVar("paisai_revision_batch", default=None)

# An event's revision is the sum of this many counters (EventRevision): concurrent commits
# bump different rows, so they do not wait for each other's WAL flush on one row.
REVISION_SHARDS = 16


def revision_sql() -> str:
    """The bump of one counter: parameters (event id, shard, time) (tournaments.sql)."""
    return revision_statements.one_bump_sql()


def _shard() -> int:
    return random.randrange(REVISION_SHARDS)


def _transaction_shard() -> int:
    """The revision counter of the current transaction: chosen at random once, then the same
    for every bump until it commits (issue 31). A transaction holds a counter row locked until
    it commits; with a counter drawn for each saved row, two transactions saving several rows
    took two counters in opposite orders and deadlocked (53 of 200 concurrent event and team
    PATCHes). With one counter a transaction, the counters add no cycle of their own.

    The transaction is recognised by its on-commit list (Django makes a new one at every
    commit and rollback) or, after a savepoint's rollback made a new list, by its outermost
    atomic block: keeping the counter when unsure is always safe, drawing a second is not."""
    if not connection.in_atomic_block:
        return _shard()  # autocommit: the bump is its own transaction
    held = getattr(connection, "paisai_revision_shard", None)
    hooks, outermost = connection.run_on_commit, connection.atomic_blocks[0]
    if held is not None and (held[1] is hooks or held[2] is outermost):
        shard = held[0]
    else:
        shard = _shard()
    connection.paisai_revision_shard = (shard, hooks, outermost)
    return shard


def revision(event) -> int:
    """The event's revision as the database holds it now (one query)."""
    return revision_statements.current(getattr(event, "pk", event))[0]


def invalidate(event) -> None:
    """Bump the event's revision in the current transaction: every cached public answer and
    memoised standings of the event are then out of date (the next read recomputes). One
    UPDATE; inside :func:`revision_batch` nothing until the batch ends."""
    pk = getattr(event, "pk", event)
    pending = _batch.get()
    if pending is not None:
        pending.add(pk)
        return
    revision_statements.bump(pk, _transaction_shard(), timezone.now())


@contextmanager
def revision_batch():
    """One transaction whose revision bumps happen once, as its last statement.

    On PostgreSQL, when the batch is the outermost transaction, the bump and the COMMIT go
    to the server together (:func:`_bump_and_commit`): the revision counter is locked only
    while the server commits. Sent apart, the row stayed locked while the thread waited to
    be scheduled again between the two round trips (the GIL, two CPUs), and every other
    result of the event queued behind it: at full speed a submission waited 5–35 ms on that
    row (pg_stat_statements), which capped the results API at 113–138/s. The lock also
    lasts through the commit's WAL flush (3.3 ms a flush on the bench machine, by
    pg_test_fsync), so one counter an event would cap it near 1/flush; the event has
    REVISION_SHARDS counters and each bump takes one at random."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        outer = _batch.get()
        pending: set = set()
        token = _batch.set(pending if outer is None else outer)
        try:
            yield
        finally:
            _batch.reset(token)
        if outer is None and pending:
            if outermost and connection.vendor == "postgresql" and not connection.needs_rollback:
                _bump_and_commit(sorted(pending))
            else:
                for pk in sorted(pending):
                    invalidate(pk)


def _bump_and_commit(pks: list[int]) -> None:
    """The bump and the COMMIT in one round trip (tournaments.sql.revision.bump_and_commit)."""
    revision_statements.bump_and_commit(pks, _transaction_shard(), timezone.now())


# --- queryset writes ------------------------------------------------------------------------


_deleting: ContextVar[bool] = ContextVar("paisai_public_delete", default=False)


class PublicQuerySet(models.QuerySet):
    """The queryset of a public model: its bulk writes bump the events they wrote rows of.
    The model's ``event_path`` leads from a row to its event (``"event"``,
    ``"team__event"``; ``"pk"`` for the event itself)."""

    known_events: frozenset | None = None

    @property
    def event_path(self) -> str:
        return self.model.event_path

    def _clone(self):
        clone = super()._clone()
        clone.known_events = self.known_events
        return clone

    def for_event(self, event) -> PublicQuerySet:
        """The same rows, known to be ``event``'s: a write then needs no query to find its
        event (the results path)."""
        clone = self._chain()
        clone.known_events = frozenset([getattr(event, "pk", event)])
        return clone

    def events(self) -> set[int]:
        """The events of the rows this queryset selects (one query, unless known)."""
        if self.known_events is not None:
            return set(self.known_events)
        return set(self.order_by().values_list(self.event_path, flat=True).distinct()) - {None}

    def events_of(self, rows) -> set[int]:
        """The events of ``rows`` (instances of the model; at most one query)."""
        if self.known_events is not None:
            return set(self.known_events)
        parts = self.event_path.split("__")
        if parts == ["pk"]:
            return {row.pk for row in rows} - {None}
        ids = {getattr(row, self.model._meta.get_field(parts[0]).attname) for row in rows}
        ids.discard(None)
        if len(parts) == 1 or not ids:
            return ids
        related = self.model._meta.get_field(parts[0]).related_model
        rest = "__".join(parts[1:])
        found = related._base_manager.filter(pk__in=ids).values_list(rest, flat=True).distinct()
        return set(found) - {None}

    def update(self, **kwargs) -> int:
        events = self.events()
        done = super().update(**kwargs)
        if done:
            bump(events)
        return done

    update.alters_data = True

    def delete(self):
        """Every row deleted (cascades included) is of the events found first: one bump each,
        not one a row (a draft round's 2,500 matches and their slots)."""
        events = self.events()
        token = _deleting.set(True)
        try:
            deleted = super().delete()
        finally:
            _deleting.reset(token)
        if deleted[0] and self.event_path != "pk":  # a deleted event has no revision left
            bump(events)
        return deleted

    delete.alters_data = True
    delete.queryset_only = True

    def bulk_create(self, objs, *args, **kwargs):
        created = super().bulk_create(objs, *args, **kwargs)
        bump(self.events_of(created))
        return created

    def bulk_update(self, objs, fields, *args, **kwargs):
        objs = list(objs)
        done = super().bulk_update(objs, fields, *args, **kwargs)
        if done:
            bump(self.events_of(objs))
        return done


class PublicManager(models.Manager.from_queryset(PublicQuerySet)):
    """The default manager of a model whose rows public answers read (the model says how a
    row leads to its event: ``event_path``): every write through it, one row or many, moves
    the event's revision."""


def bump(events) -> None:
    for pk in sorted(events):
        invalidate(pk)


def is_public(model) -> bool:
    return isinstance(model._default_manager, PublicManager)


# --- saves and deletes of one row -----------------------------------------------------------


def event_of(instance) -> int | None:
    """The event of a public model's row: through the related rows already loaded, else by
    one query."""
    parts = type(instance).event_path.split("__")
    if parts == ["pk"]:
        return instance.pk
    row = instance
    for index, part in enumerate(parts[:-1]):
        loaded = row._state.fields_cache.get(part)
        if loaded is None:
            field = row._meta.get_field(part)
            rest = "__".join(parts[index + 1 :])
            manager = field.related_model._base_manager
            return (
                manager.filter(pk=getattr(row, field.attname)).values_list(rest, flat=True).first()
            )
        row = loaded
    return getattr(row, row._meta.get_field(parts[-1]).attname)


def _bump_saved(sender, instance, raw=False, **kwargs) -> None:
    if raw:  # loaddata / archive import: the importer's own transaction bumps
        return
    if getattr(instance, "is_counting", True) is False:
        return  # a result version that does not count changes no public answer
    event = event_of(instance)
    if event is not None:
        invalidate(event)


def _bump_deleted(sender, instance, **kwargs) -> None:
    if _deleting.get():
        return  # a queryset's delete bumps its events once (PublicQuerySet.delete)
    if type(instance).event_path == "pk":
        return  # the event itself is being deleted
    event = event_of(instance)
    if event is not None:
        invalidate(event)


def connect() -> None:
    """Every public model's saves and deletes bump its event (called once, apps.ready)."""
    from django.apps import apps
    from django.db.models.signals import post_delete, post_save

    for model in apps.get_app_config("tournaments").get_models():
        if is_public(model):
            name = model.__name__
            post_save.connect(_bump_saved, sender=model, dispatch_uid=f"paisai-revision-{name}")
            post_delete.connect(
                _bump_deleted, sender=model, dispatch_uid=f"paisai-revision-del-{name}"
            )
