"""Calls to the chief referee from a table (呼叫裁判) and the chief's queue.

- :func:`raise_call`: the table's referee (a table referee assigned to the table, or the chief)
  or the table's device (its live key) calls the chief referee to the table, optionally with a
  short note. One open call per table and round: pressing again while the call waits (or two
  phones at once) adds nothing and answers the waiting call.
- :func:`answer`: the chief referee marks a call answered (who and when kept as text).
- :func:`queue`: what waits for the chief in a round, oldest first: open calls and open result
  disputes (``ResultDispute``, raised by a captain), each with its table and how long it waits.

Raising and answering are in the audit log.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import permissions
from tournaments.errors import Forbidden, ServiceError
from tournaments.models import Match, RefereeCall, ResultDispute, Round

from .audit import log_action
from .results import Actor

NOTE_MAX = 300
OPEN_ROUND = (Round.Status.PUBLISHED, Round.Status.IN_PLAY, Round.Status.COMPLETE)
CALL, DISPUTE = "call", "dispute"


class CallError(ServiceError):
    """A call to the chief referee refused."""


class CallForbidden(CallError, Forbidden):
    """Not the table's referee or device, or not the chief referee (403)."""


def open_call(rnd: Round, table_number: int | None) -> RefereeCall | None:
    """The call waiting at ``table_number`` in ``rnd`` (None when none)."""
    if table_number is None:
        return None
    return RefereeCall.objects.filter(
        round=rnd, table_number=table_number, answered_at__isnull=True
    ).first()


def may_call(actor: Actor, match: Match) -> bool:
    """The table's device (its live key), the table referees assigned to the table, the chief."""
    event = match.round.event
    key = actor.table_key
    if key is not None:
        return bool(
            key.is_live and key.event_id == event.pk and key.table_number == match.table_number
        )
    return permissions.may(actor.user, event, "call.raise") and permissions.can_write_table(
        actor.user, event, match.table_number
    )


def raise_call(match: Match, actor: Actor, note: object = "") -> tuple[RefereeCall, bool]:
    """Call the chief referee to ``match``'s table. Returns the call and whether it is new
    (False: the table's earlier call still waits; nothing is added)."""
    rnd = match.round
    if match.table_number is None:
        raise CallError(_("A bye has no table to call the chief referee to."), "table")
    if actor.user is None and actor.table_key is None:
        raise CallForbidden(permissions.ACTIONS["call.raise"].refusal)
    if not may_call(actor, match):
        raise CallForbidden(
            _("You may not call the chief referee for table %(table)s."), table=match.table_number
        )
    if rnd.status not in OPEN_ROUND:
        raise CallError(
            _("Round %(number)s is not being played: no call from its tables."),
            "round",
            number=rnd.number,
        )
    text = note.strip() if isinstance(note, str) else ""
    if len(text) > NOTE_MAX:
        raise CallError(_("Keep the note short: at most %(max)s characters."), "note", max=NOTE_MAX)
    waiting = open_call(rnd, match.table_number)
    if waiting is not None:
        return waiting, False
    key = actor.table_key
    if key is not None:
        via, name = RefereeCall.Via.TABLE_KEY, key.referee.username if key.referee else ""
    else:
        via, name = RefereeCall.Via.REFEREE, actor.user.get_username()
    try:
        with transaction.atomic():
            call = RefereeCall.objects.create(
                event=rnd.event,
                round=rnd,
                table_number=match.table_number,
                note=text,
                raised_by_name=name,
                raised_via=via,
            )
            data = {"round": rnd.number, "table": match.table_number, "via": via}
            if key is not None:
                data["table_key"] = key.pk
            log_action(
                rnd.event,
                actor.user,
                "call.raise",
                call,
                data=data,
                reason=text,
                source=actor.source,
            )
    except IntegrityError:  # another phone of the table called at the same moment
        waiting = open_call(rnd, match.table_number)
        if waiting is None:
            raise
        return waiting, False
    return call, True


def answer(call: RefereeCall, user, source: str = "", now: datetime | None = None) -> RefereeCall:
    """The chief referee marks ``call`` answered (once: a second answer is refused)."""
    permissions.require(user, call.event, "call.answer", CallForbidden)
    now = now or timezone.now()
    with transaction.atomic():
        answered = RefereeCall.objects.filter(pk=call.pk, answered_at__isnull=True).update(
            answered_at=now, answered_by_name=user.get_username()
        )
        call.refresh_from_db()
        if not answered:
            raise CallError(
                _("The call from table %(table)s was already answered by %(user)s."),
                "call",
                table=call.table_number,
                user=call.answered_by_name or "—",
            )
        waited = int((call.answered_at - call.created_at).total_seconds())
        log_action(
            call.event,
            user,
            "call.answer",
            call,
            data={"round": call.round.number, "table": call.table_number, "waited_seconds": waited},
            source=source,
        )
    return call


@dataclass(frozen=True)
class Waiting:
    """One thing waiting for the chief referee: a call or a dispute, at a table."""

    kind: str  # CALL or DISPUTE
    table: int | None
    since: datetime
    minutes: int  # whole minutes waited so far
    note: str
    by: str
    match_id: int | None
    call: RefereeCall | None = None
    dispute: ResultDispute | None = None


def queue(rnd: Round, now: datetime | None = None) -> list[Waiting]:
    """Open calls and open disputes of ``rnd``, oldest first (three queries)."""
    now = now or timezone.now()
    matches = dict(rnd.matches.exclude(table_number=None).values_list("table_number", "pk"))

    def minutes(since: datetime) -> int:
        return max(0, int((now - since).total_seconds() // 60))

    items = [
        Waiting(
            CALL,
            call.table_number,
            call.created_at,
            minutes(call.created_at),
            call.note,
            call.raised_by_name,
            matches.get(call.table_number),
            call=call,
        )
        for call in RefereeCall.objects.filter(round=rnd, answered_at__isnull=True)
    ]
    disputes = ResultDispute.objects.filter(match__round=rnd, decided_at__isnull=True)
    items += [
        Waiting(
            DISPUTE,
            dispute.match.table_number,
            dispute.created_at,
            minutes(dispute.created_at),
            dispute.reason,
            dispute.raised_by_name,
            dispute.match_id,
            dispute=dispute,
        )
        for dispute in disputes.select_related("match", "team")
    ]
    return sorted(items, key=lambda item: (item.since, item.kind, item.table or 0))
