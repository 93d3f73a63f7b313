"""Table assignment in bulk: ranges of tables to table referees (e.g. 1-50 → referee A).

A table referee writes only the tables assigned to them, in every round (TableAssignment).
Assigning is one action per referee with a range list, logged once with the ranges; the
referee is given the table-referee role if they do not hold it yet.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournaments import permissions
from tournaments.models import Event, EventRole, Role, TableAssignment
from tournaments.services.audit import log_action
from tournaments.services.rounds import RoundError
from tournaments.validation import MAX_TABLE

RANGE = re.compile(r"^(\d{1,5})(?:-(\d{1,5}))?$")


def parse_tables(text: str) -> list[int]:
    """ "1-50, 60, 70–72" → [1 … 50, 60, 70, 71, 72]; commas, 、 or spaces between parts."""
    tables: set[int] = set()
    text = re.sub(r"\s*[-–~～至]\s*", "-", (text or "").strip())
    parts = [part for part in re.split(r"[,，、;；\s]+", text) if part]
    if not parts:
        raise RoundError(_("Give the tables, e.g. 1-50, 60."), "tables")
    for part in parts:
        match = RANGE.match(part.strip())
        if not match:
            raise RoundError(
                _("“%(part)s” is not a table or a range of tables (e.g. 1-50)."),
                "tables",
                part=part,
            )
        first, last = int(match[1]), int(match[2] or match[1])
        if not 1 <= first <= last <= MAX_TABLE:
            raise RoundError(
                _("Tables run from 1 to %(max)s, the first of a range first: “%(part)s”."),
                "tables",
                max=MAX_TABLE,
                part=part,
            )
        tables.update(range(first, last + 1))
    return sorted(tables)


def ranges(tables) -> str:
    """[1, 2, 3, 5] → "1-3, 5"."""
    out, run = [], []
    for table in sorted(set(tables)):
        if run and table == run[-1] + 1:
            run.append(table)
            continue
        if run:
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [table]
    if run:
        out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
    return ", ".join(out)


def _require_manage(user, event: Event) -> None:
    if not permissions.can_manage(user, event):
        raise RoundError(_("Only an organiser of this event may assign tables."))


def find_referee(username: str):
    user = get_user_model().objects.filter(username=(username or "").strip()).first()
    if user is None:
        raise RoundError(_("No user “%(name)s”."), "username", name=username)
    return user


@transaction.atomic
def assign_tables(event: Event, user, referee, tables, replace: bool = False) -> int:
    """Give ``referee`` the ``tables`` (a list or a range text); ``replace`` drops their other
    tables. Returns how many tables were newly assigned."""
    _require_manage(user, event)
    tables = parse_tables(tables) if isinstance(tables, str) else sorted(set(tables))
    role, granted = EventRole.objects.get_or_create(
        user=referee, event=event, role=Role.TABLE_REFEREE
    )
    if granted:
        log_action(
            event, user, "role.grant", role, data={"user": referee.username, "role": role.role}
        )
    mine = TableAssignment.objects.filter(event=event, user=referee)
    removed = []
    if replace:
        removed = list(mine.exclude(table_number__in=tables).values_list("table_number", flat=True))
        mine.filter(table_number__in=removed).delete()
    have = set(mine.values_list("table_number", flat=True))
    new = [t for t in tables if t not in have]
    TableAssignment.objects.bulk_create(
        [TableAssignment(event=event, user=referee, table_number=t) for t in new]
    )
    log_action(
        event,
        user,
        "tables.assign",
        role,
        data={"referee": referee.username, "added": ranges(new), "removed": ranges(removed)},
    )
    return len(new)


@transaction.atomic
def unassign_tables(event: Event, user, referee, tables) -> int:
    _require_manage(user, event)
    tables = parse_tables(tables) if isinstance(tables, str) else sorted(set(tables))
    deleted, _rows = TableAssignment.objects.filter(
        event=event, user=referee, table_number__in=tables
    ).delete()
    log_action(
        event,
        user,
        "tables.unassign",
        None,
        data={"referee": referee.username, "removed": ranges(tables)},
    )
    return deleted


@dataclass(frozen=True)
class RefereeTables:
    username: str
    name: str
    tables: str
    count: int


def overview(event: Event) -> list[RefereeTables]:
    """Every table referee with their tables as ranges (two queries)."""
    by_user: dict[int, list[int]] = {}
    for user_id, table in TableAssignment.objects.filter(event=event).values_list(
        "user_id", "table_number"
    ):
        by_user.setdefault(user_id, []).append(table)
    referees = (
        EventRole.objects.filter(event=event, role=Role.TABLE_REFEREE)
        .select_related("user")
        .order_by("user__username")
    )
    return [
        RefereeTables(
            role.user.username,
            role.user.get_full_name() or role.user.username,
            ranges(by_user.get(role.user_id, [])),
            len(by_user.get(role.user_id, [])),
        )
        for role in referees
    ]


def unassigned_tables(event: Event) -> list[int]:
    """Tables of the latest round that no table referee holds."""
    latest = event.rounds.order_by("-number").first()
    if latest is None:
        return []
    playing = set(latest.matches.exclude(table_number=None).values_list("table_number", flat=True))
    held = set(TableAssignment.objects.filter(event=event).values_list("table_number", flat=True))
    return sorted(playing - held)
