"""The end of a round's life: results complete → finalised, and reopening.

- :func:`complete_if_done`: a round in play (or published) becomes *complete* as soon as
  every match that is not a bye has a counting result version (a void counts as decided).
  One indexed query that stops at the first undecided match.
- :func:`note_decided`: the results service calls it whenever a version starts counting; it
  checks inside the writing transaction and, while matches are pending, once more after the
  commit (two last results committed at the same moment each see the other as pending; the
  later commit's second look sees both).
- :func:`finalise`: the organiser or the chief referee locks the round; refused, naming the
  tables, while a match lacks a counting version. The next round can be paired only after.
- :func:`reopen`: the chief referee only, with a reason; the round goes back to complete.

Every finalise and reopen is logged with who, when, why and from where.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import permissions
from tournaments.errors import Forbidden, ServiceError
from tournaments.models import Match, ResultVersion, Round, Tournament
from tournaments.standings.service import invalidate

from .audit import log_action

OPEN_FOR_COMPLETION = (Round.Status.PUBLISHED, Round.Status.IN_PLAY)

# Raw SQL on purpose: it runs on every confirmation, and compiling its ORM form (an exclude
# across the reverse relation) cost more CPU than the database needs to answer it. It walks
# the round's matches (index round, table) and probes the one-counting-version partial index,
# from the table just decided onwards, then from the first table: results come in roughly in
# table order at a venue (and in the bench), and a walk from table 1 would probe every table
# already decided, twice a result (a round's last results cost the walk of every table).
MATCHES, VERSIONS = Match._meta.db_table, ResultVersion._meta.db_table
_UNDECIDED = (
    f"SELECT 1 FROM {MATCHES} m WHERE m.round_id = %s AND m.away_id IS NOT NULL {{tables}} "
    f"AND NOT EXISTS (SELECT 1 FROM {VERSIONS} v WHERE v.match_id = m.id AND v.is_counting) "
    "LIMIT 1"  # no ORDER BY: a sort would probe the whole range before the first row
)
PENDING_SQL = _UNDECIDED.format(tables="")
PENDING_FROM_SQL = (  # COALESCE looks at the second walk only when the first finds nothing
    f"SELECT COALESCE(({_UNDECIDED.format(tables='AND m.table_number > %s')}), "
    f"({_UNDECIDED.format(tables='AND m.table_number <= %s')}))"
)


class RoundCloseError(ServiceError):
    """A refused finalise or reopen; ``tables`` are those still lacking a counting result."""

    def __init__(self, message, field: str | None = None, pending: list | None = None,
                 status: int | None = None, **params):  # fmt: skip
        super().__init__(message, field, status, **params)
        self.tables = pending or []

    def extra(self) -> dict:
        return {"tables": self.tables}


class RoundCloseForbidden(RoundCloseError, Forbidden):
    """The user may not finalise or reopen this round."""


def pending_tables(round_: Round) -> list[int]:
    """Tables of the round whose match has no counting version yet (byes excluded)."""
    return list(
        Match.objects.filter(round=round_, away__isnull=False)
        .exclude(versions__is_counting=True)
        .order_by("table_number")
        .values_list("table_number", flat=True)
    )


def has_pending(round_id: int, table: int | None = None) -> bool:
    """True while a played match of the round has no counting version (looked for from the
    tables after ``table`` onwards first, when given)."""
    with connection.cursor() as cursor:
        if table is None:
            cursor.execute(PENDING_SQL, [round_id])
            return cursor.fetchone() is not None
        cursor.execute(PENDING_FROM_SQL, [round_id, table, round_id, table])
        return cursor.fetchone()[0] is not None


def complete_if_done(round_: Round, table: int | None = None) -> bool:
    """Mark the round complete when no match lacks a counting version; True if it did.
    ``table``: the table just decided (where the search for a pending one starts)."""
    if round_.status not in OPEN_FOR_COMPLETION or has_pending(round_.pk, table):
        return False
    with transaction.atomic():
        updated = Round.objects.filter(pk=round_.pk, status__in=OPEN_FOR_COMPLETION).update(
            status=Round.Status.COMPLETE
        )
        if updated:
            log_action(round_.tournament, None, "round.complete", round_,
                       data={"round": round_.number})  # fmt: skip
            invalidate(round_.tournament_id)  # update() sends no signal
    if updated:
        round_.status = Round.Status.COMPLETE
    return bool(updated)


def note_decided(round_: Round, table: int | None = None) -> None:
    """A match of ``round_`` (at ``table``) just got a counting version, inside the writing
    transaction: complete the round now if nothing is pending, else look again once the write
    commits."""
    if round_.status in OPEN_FOR_COMPLETION and not complete_if_done(round_, table):
        transaction.on_commit(lambda: complete_if_done(round_, table), robust=True)


def finalise(round_: Round, user, source: str = "") -> Round:
    """Lock the round's results (organiser or chief referee)."""
    tournament = round_.tournament
    permissions.require(user, tournament, "round.finalise", RoundCloseForbidden)
    with transaction.atomic():
        locked = Round.objects.select_for_update(no_key=True).get(pk=round_.pk)
        if locked.status == Round.Status.FINALISED:
            raise RoundCloseError(_("Round %(n)s is already finalised."), "round", n=locked.number)
        if locked.status == Round.Status.DRAFT:
            raise RoundCloseError(_("Round %(n)s is not published yet."), "round", n=locked.number)
        tables = pending_tables(locked)
        if tables:
            listed = ", ".join(str(t) for t in tables)
            raise RoundCloseError(
                _("Round %(n)s cannot be finalised: no confirmed result at table(s) %(tables)s."),
                "round",
                status=409,
                pending=tables,
                n=locked.number,
                tables=listed,
            )
        locked.status = Round.Status.FINALISED
        locked.finalised_at = timezone.now()
        locked.save(update_fields=["status", "finalised_at"])
        log_action(tournament, user, "round.finalise", locked, data={"round": locked.number},
                   source=source)  # fmt: skip
        if locked.stage_id is not None:
            from tournaments.services import stage_rounds  # it builds on the round services

            stage_rounds.after_finalise(locked, user)  # a knockout's next round, from winners
    return locked


def reopen(round_: Round, user, reason: str, source: str = "") -> Round:
    """Reopen a finalised round (chief referee only, with a reason); it becomes complete."""
    tournament = round_.tournament
    permissions.require(user, tournament, "round.reopen", RoundCloseForbidden)
    if not isinstance(reason, str) or not reason.strip():
        raise RoundCloseError(_("Give a reason: it goes in the audit log."), "reason")
    if Tournament.objects.filter(pk=tournament.pk, status=Tournament.Status.FINISHED).exists():
        raise RoundCloseError(
            _("The event is finished: its results are frozen. The chief referee may reopen it.")
        )
    with transaction.atomic():
        locked = Round.objects.select_for_update(no_key=True).get(pk=round_.pk)
        if locked.status != Round.Status.FINALISED:
            raise RoundCloseError(
                _("Round %(n)s is not finalised."), "round", status=409, n=locked.number
            )
        locked.status = Round.Status.COMPLETE
        locked.finalised_at = None
        locked.save(update_fields=["status", "finalised_at"])
        log_action(tournament, user, "round.reopen", locked, data={"round": locked.number},
                   reason=reason, source=source)  # fmt: skip
    return locked
