"""Table keys: a private, revocable key per event table for the table's device.

The organiser or the chief referee issues a key (any live key of that table is revoked
first: one live key per table, enforced by the database) and may revoke it; both logged.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import permissions
from tournaments.errors import Code
from tournaments.models import EventRole, Job, Role, TableAssignment, TableKey
from tournaments.validation import MAX_TABLE

from . import jobs
from .audit import log_action
from .results import ResultError, ResultForbidden


def live_keys(event) -> list[TableKey]:
    return list(
        TableKey.objects.filter(event=event, revoked_at__isnull=True).select_related("referee")
    )


def any_key(key: str) -> TableKey | None:
    """The key ``key``, live or revoked (None when unknown)."""
    return TableKey.objects.select_related("event").filter(key=str(key)[:64]).first()


def live_key(key: str) -> TableKey:
    """The live key ``key``; ResultError (404) when unknown or revoked."""
    table_key = (
        TableKey.objects.select_related("event")
        .filter(key=str(key)[:64], revoked_at__isnull=True)
        .first()
    )
    if table_key is None:
        raise ResultError(_("This table link is unknown or was revoked."), "key", Code.NOT_FOUND)
    return table_key


def table_referees(event, table_number: int) -> list:
    """The table referees assigned to ``table_number`` (users), by username."""
    referees = EventRole.objects.filter(event=event, role=Role.TABLE_REFEREE)
    return [
        a.user
        for a in TableAssignment.objects.filter(
            event=event,
            table_number=table_number,
            user__in=referees.values("user"),
        )
        .select_related("user")
        .order_by("user__username")
    ]


def _key_referee(event, table_number: int, referee):
    """The referee a new key belongs to: the one named (who must referee the table), else
    the table's only assigned referee, else nobody (then only the chief referee or both
    captains confirm the key's entries)."""
    assigned = table_referees(event, table_number)
    if referee is None:
        return assigned[0] if len(assigned) == 1 else None
    if referee not in assigned:
        raise ResultError(
            _("%(user)s is not a table referee of table %(table)s."),
            "referee",
            user=referee.username,
            table=table_number,
        )
    return referee


def issue(event, table_number: int, user, source: str = "", referee=None) -> TableKey:
    """A new key for the table (revoking its live one), bound to the table's referee."""
    permissions.require(user, event, "table_key.manage", ResultForbidden)
    if not 1 <= table_number <= MAX_TABLE:
        raise ResultError(
            _("table_number must be a table from 1 to %(max)s."), "table_number", max=MAX_TABLE
        )
    referee = _key_referee(event, table_number, referee)
    with transaction.atomic():
        for old in TableKey.objects.select_for_update().filter(
            event=event, table_number=table_number, revoked_at__isnull=True
        ):
            revoke(old, user, source, reason="replaced by a new key")
        key = TableKey.objects.create(
            event=event, table_number=table_number, created_by=user, referee=referee
        )
        log_action(
            event,
            user,
            "table_key.issue",
            key,
            data={"table": table_number, "referee": referee.username if referee else None},
            source=source,
        )
    return key


def revoke(key: TableKey, user, source: str = "", reason: str = "") -> TableKey:
    permissions.require(user, key.event, "table_key.manage", ResultForbidden)
    if key.revoked_at is None:
        key.revoked_at = timezone.now()
        key.revoked_by = user if getattr(user, "is_authenticated", False) else None
        key.save(update_fields=["revoked_at", "revoked_by"])
        log_action(
            key.event,
            user,
            "table_key.revoke",
            key,
            data={"table": key.table_number},
            reason=reason,
            source=source,
        )
    return key


def missing_tables(event) -> list[int]:
    """The tables of the current round that have no live key."""
    from .results import current_round

    round_ = current_round(event)
    if round_ is None:
        return []
    live = set(
        TableKey.objects.filter(event=event, revoked_at__isnull=True).values_list(
            "table_number", flat=True
        )
    )
    tables = round_.matches.exclude(table_number=None).values_list("table_number", flat=True)
    return sorted(set(tables) - live)


def issue_missing(event, user, source: str = "", progress=None) -> list[TableKey]:
    """A key for every table of the current round that has no live key (one click for all);
    ``progress(done, total)`` is told every :data:`PROGRESS_EVERY` tables."""
    tables = missing_tables(event)
    made = []
    for table in tables:
        made.append(issue(event, table, user, source))
        if progress is not None and len(made) % PROGRESS_EVERY == 0:
            progress(len(made), len(tables))
    return made


LINKS_JOB = "table-links"
PROGRESS_EVERY = 50


def create_links_job(event, user, source: str = "") -> Job:
    """Table links for every table still without one, made by a background job
    (``tasks.start`` queues it): 2,500 tables took longer than a request may."""
    permissions.require(user, event, "table_key.manage", ResultForbidden)
    return Job.objects.create(
        event=event,
        kind=LINKS_JOB,
        params={"source": source[:120]},
        total=len(missing_tables(event)),
        created_by=user,
    )


def run_links_job(job: Job) -> None:
    """The job's table links, with progress; run again, it issues only what is still missing
    (each table's key is made in its own transaction)."""
    jobs.mark_running(job, len(missing_tables(job.event)))
    made = issue_missing(
        job.event,
        job.created_by,
        (job.params or {}).get("source", ""),
        progress=lambda done, total: jobs.set_progress(job.pk, done, total),
    )
    Job.objects.filter(pk=job.pk).update(report={"count": len(made)})
    jobs.finish(job, len(made))
