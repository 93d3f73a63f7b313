"""The event's lifecycle: registration → check-in → in play → finished (SPEC §6).

The status follows what happens: the first check-in opens check-in, the first published
round puts the event in play, and the organiser finishes it once every round is finalised.
Finishing freezes the results (no round can be reopened); the chief referee may reopen a
finished event with a reason, logged.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import permissions
from tournaments.models import Event, Round
from tournaments.services.audit import log_action
from tournaments.services.round_basics import RoundCloseError as EventError
from tournaments.services.round_basics import RoundCloseForbidden as EventForbidden

Status = Event.Status
ORDER = [Status.REGISTRATION, Status.CHECK_IN, Status.IN_PLAY, Status.FINISHED]


def advance(event: Event, status: str) -> None:
    """Move the event forward to ``status`` (never back; a finished event stays finished)."""
    if ORDER.index(status) <= ORDER.index(event.status):
        return
    updated = Event.objects.filter(pk=event.pk, status__in=ORDER[: ORDER.index(status)]).update(
        status=status
    )
    if updated:
        event.status = status
        log_action(event, None, "tournament.status", event, data={"status": status})


def require_not_finished(event: Event) -> None:
    if Event.objects.filter(pk=event.pk, status=Status.FINISHED).exists():
        raise EventError(
            _("The event is finished: its results are frozen. The chief referee may reopen it.")
        )


def finish(event: Event, user, source: str = "") -> Event:
    """The organiser finishes the event once every round is finalised."""
    permissions.require(user, event, "event.finish", EventForbidden)
    with transaction.atomic():
        locked = Event.objects.select_for_update(no_key=True).get(pk=event.pk)
        if locked.status == Status.FINISHED:
            raise EventError(_("The event is already finished."))
        rounds = locked.rounds.all()
        if not rounds.exists():
            raise EventError(_("No round has been played yet."))
        open_rounds = sorted(
            rounds.exclude(status=Round.Status.FINALISED).values_list("number", flat=True)
        )
        if open_rounds:
            raise EventError(
                _("Finalise every round first; not finalised: %(rounds)s."),
                rounds=", ".join(str(n) for n in open_rounds),
            )
        locked.status = Status.FINISHED
        locked.save(update_fields=["status"])
        log_action(
            locked,
            user,
            "tournament.finish",
            locked,
            data={"rounds": rounds.count(), "at": timezone.now().isoformat()},
            source=source,
        )
    return locked


def reopen(event: Event, user, reason: str, source: str = "") -> Event:
    """The chief referee reopens a finished event (results can be corrected again)."""
    permissions.require(user, event, "event.reopen", EventForbidden)
    if not isinstance(reason, str) or not reason.strip():
        raise EventError(_("Give a reason: it goes in the audit log."), "reason")
    with transaction.atomic():
        locked = Event.objects.select_for_update(no_key=True).get(pk=event.pk)
        if locked.status != Status.FINISHED:
            raise EventError(_("The event is not finished."))
        locked.status = Status.IN_PLAY
        locked.save(update_fields=["status"])
        log_action(locked, user, "tournament.reopen", locked, reason=reason, source=source)
    return locked
