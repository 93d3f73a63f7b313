"""Captains dispute a result version; the chief referee decides.

- :func:`raise_dispute`: a captain of one of the two teams disputes the latest version (not yet
  counting) with a reason. It shows on the chief referee's dashboard as a call to that table,
  and the version cannot count (``result_confirm.confirm`` refuses) until the chief decides.
- :func:`decide`: the chief referee only: ``stands`` (the version counts now, confirmed by the
  chief), ``dismissed`` (the dispute closes; the captains may confirm again). A correction by
  the chief (``result_entry.correct``) closes the match's open disputes as ``corrected``.

Every dispute and decision is in the audit log with who, when and why.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import permissions
from tournaments.errors import Code
from tournaments.models import Match, ResultDispute

from . import result_confirm, results
from .audit import log_action
from .results import Actor, ChangedMeanwhile, ResultError, ResultForbidden

Decision = ResultDispute.Decision


def open_disputes(match: Match) -> list[ResultDispute]:
    return list(
        ResultDispute.objects.filter(match=match, decided_at__isnull=True)
        .select_related("version", "team", "raised_by")
        .order_by("created_at")
    )


def open_calls(event) -> list[ResultDispute]:
    """Every open dispute of the event: the chief referee's calls to tables."""
    return list(
        ResultDispute.objects.filter(match__round__event=event, decided_at__isnull=True)
        .select_related("match__round", "match__home", "match__away", "version", "team")
        .order_by("created_at")
    )


def captain_team(actor: Actor, match: Match) -> int | None:
    """The team of ``match`` the actor captains (None when none)."""
    if actor.user is None or actor.table_key is not None:
        return None
    teams = permissions.captain_team_ids(actor.user, match.round.event)
    return next((t for t in (match.home_id, match.away_id) if t in teams), None)


def raise_dispute(match: Match, number: object, actor: Actor, reason: object) -> ResultDispute:
    team_id = captain_team(actor, match)
    if team_id is None:
        raise ResultForbidden(_("Only the captains of the two teams may dispute this result."))
    if not isinstance(reason, str) or not reason.strip():
        raise ResultError(
            _("Say what is wrong: the chief referee reads it at the table."), "reason"
        )
    with transaction.atomic():
        results.lock(match)
        latest = results.latest_version(match)
        if latest is None:
            raise ResultError(_("There is no result to dispute yet."), "version")
        if latest.number != number:
            raise ChangedMeanwhile(latest)
        if latest.is_counting:
            raise ResultError(
                _(
                    "Version %(n)s already counts: ask the chief referee (an incident or an "
                    "appeal)."
                ),
                "version",
                n=latest.number,
            )
        if ResultDispute.objects.filter(
            version=latest, team_id=team_id, decided_at__isnull=True
        ).exists():
            raise ResultError(
                _("Your team has already disputed this version."), "version", Code.CONFLICT
            )
        dispute = ResultDispute.objects.create(
            match=match,
            version=latest,
            team_id=team_id,
            raised_by=actor.user,
            raised_by_name=actor.user.username,
            reason=reason.strip()[:2000],
        )
        log_action(
            match.round.event,
            actor.user,
            "result.dispute",
            match,
            data={"version": latest.number, "team": team_id, "dispute": dispute.pk},
            reason=dispute.reason,
            source=actor.source,
        )
    return dispute


def decide(
    dispute: ResultDispute, actor: Actor, decision: object, note: object = ""
) -> ResultDispute:
    """The chief referee decides an open dispute: the version stands (counts) or the dispute
    is dismissed."""
    match = dispute.match
    if not results.is_chief(actor, match.round.event):
        raise ResultForbidden(_("Only the chief referee decides a disputed result."))
    if decision not in (Decision.STANDS, Decision.DISMISSED):
        raise ResultError(_("Decide: the version stands, or the dispute is dismissed."), "decision")
    note = note.strip() if isinstance(note, str) else ""
    with transaction.atomic():
        results.lock(match)
        updated = ResultDispute.objects.filter(pk=dispute.pk, decided_at__isnull=True).update(
            decided_at=timezone.now(),
            decided_by=actor.user,
            decided_by_name=actor.user.username,
            decision=decision,
            decision_note=note[:2000],
        )
        if not updated:
            raise ResultError(_("This dispute was already decided."), "dispute")
        log_action(
            match.round.event,
            actor.user,
            "result.dispute_decided",
            match,
            data={"dispute": dispute.pk, "version": dispute.version.number, "decision": decision},
            reason=note,
            source=actor.source,
        )
        if (
            decision == Decision.STANDS
            and not ResultDispute.objects.filter(
                version=dispute.version, decided_at__isnull=True
            ).exists()
        ):
            # the chief referee's confirmation makes the version count at once
            result_confirm.confirm(match, dispute.version.number, actor)
    dispute.refresh_from_db()
    return dispute
