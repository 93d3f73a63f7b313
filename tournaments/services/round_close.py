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

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import permissions
from tournaments.errors import Code
from tournaments.models import Event, Match, Round
from tournaments.sql import pending

from .audit import log_action
from .round_basics import RoundCloseError, RoundCloseForbidden

OPEN_FOR_COMPLETION = (Round.Status.PUBLISHED, Round.Status.IN_PLAY)


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
    tables after ``table`` onwards first, when given): SQL built once (tournaments.sql)."""
    return pending.has_pending(round_id, table)


def complete_if_done(round_: Round, table: int | None = None) -> bool:
    """Mark the round complete when no match lacks a counting version; True if it did.
    ``table``: the table just decided (where the search for a pending one starts)."""
    if round_.status not in OPEN_FOR_COMPLETION or has_pending(round_.pk, table):
        return False
    with transaction.atomic():
        rounds = Round.objects.filter(pk=round_.pk, status__in=OPEN_FOR_COMPLETION)
        updated = rounds.for_event(round_.event_id).update(status=Round.Status.COMPLETE)
        if updated:
            log_action(round_.event, None, "round.complete", round_, data={"round": round_.number})
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
    event = round_.event
    permissions.require(user, event, "round.finalise", RoundCloseForbidden)
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
                Code.CONFLICT,
                pending=tables,
                n=locked.number,
                tables=listed,
            )
        locked.status = Round.Status.FINALISED
        locked.finalised_at = timezone.now()
        locked.save(update_fields=["status", "finalised_at"])
        log_action(
            event, user, "round.finalise", locked, data={"round": locked.number}, source=source
        )
        if locked.stage_id is not None:
            from tournaments.services import stage_rounds  # it builds on the round services

            stage_rounds.after_finalise(locked, user)  # a knockout's next round, from winners
    return locked


def reopen(round_: Round, user, reason: str, source: str = "") -> Round:
    """Reopen a finalised round (chief referee only, with a reason); it becomes complete."""
    event = round_.event
    permissions.require(user, event, "round.reopen", RoundCloseForbidden)
    if not isinstance(reason, str) or not reason.strip():
        raise RoundCloseError(_("Give a reason: it goes in the audit log."), "reason")
    if Event.objects.filter(pk=event.pk, status=Event.Status.FINISHED).exists():
        raise RoundCloseError(
            _("The event is finished: its results are frozen. The chief referee may reopen it.")
        )
    with transaction.atomic():
        locked = Round.objects.select_for_update(no_key=True).get(pk=round_.pk)
        if locked.status != Round.Status.FINALISED:
            raise RoundCloseError(
                _("Round %(n)s is not finalised."), "round", Code.CONFLICT, n=locked.number
            )
        locked.status = Round.Status.COMPLETE
        locked.finalised_at = None
        locked.save(update_fields=["status", "finalised_at"])
        log_action(
            event,
            user,
            "round.reopen",
            locked,
            data={"round": locked.number},
            reason=reason,
            source=source,
        )
    return locked
