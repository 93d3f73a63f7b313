"""Authoritative versions: a ruling's effect, a void by ruling, a restore of an earlier version.

These count at once and append after whatever is latest (retrying a lost number race), so an
arbitration decision or a chief referee's restore never asks the caller for a base version.
Nothing is deleted: each is a new :class:`ResultVersion` with its audit entry.
"""

from __future__ import annotations

from django.db import IntegrityError
from django.utils.translation import gettext_lazy as _

from tournaments.errors import Code
from tournaments.models import Match, ResultVersion, Round

from .result_entry import append_version, require_reason, void_record
from .results import (
    Actor,
    Kind,
    ResultError,
    base_number,
    latest_version,
    require_chief,
    require_open_round,
    score_record,
)

RULING_RETRIES = 5


def _append_latest(match, record, outcome, user, kind, note, audit, source="") -> ResultVersion:
    """Append after whatever is latest, counting at once (retries a lost number race)."""
    actor = Actor(user, None, "ruling" if kind == Kind.RULING else "web", source)
    for attempt in range(RULING_RETRIES):
        latest = latest_version(match)
        number = (latest.number if latest else 0) + 1
        try:
            return append_version(match, record, outcome, actor, number, kind, True, note, audit)
        except IntegrityError:
            if attempt == RULING_RETRIES - 1:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def submit_ruling_version(
    match: Match, record: dict, user, reason: str, source_ref: str, source: str = ""
) -> ResultVersion:
    """A ruling's effect on a match (arbitration): scored by the engine, stored as a new
    version of kind ``ruling`` that counts at once, logged as ``result.ruling`` with
    ``source_ref`` (e.g. "arbitration.ruling:12"). Allowed in any published round, even a
    finalised one (an appeal may change a finished round). Raises ResultError (field
    ``record.…``) when the engine refuses the record; nothing is stored then."""
    require_reason(reason)
    if match.round.status == Round.Status.DRAFT:
        raise ResultError(_("Round %(n)s is not published yet."), "round", n=match.round.number)
    stored, outcome = score_record(match, record)
    return _append_latest(
        match, stored, outcome, user, Kind.RULING, reason, {"source_ref": source_ref}, source
    )


def void_by_ruling(
    match: Match, user, reason: str, source_ref: str, source: str = ""
) -> ResultVersion:
    """Arbitration voids the match (e.g. an overturned forfeit that was its only result): a new
    ``void`` version counting at once, logged with ``source_ref``. Nothing is deleted."""
    require_reason(reason)
    record, outcome = void_record(match)
    return _append_latest(
        match, record, outcome, user, Kind.VOID, reason, {"source_ref": source_ref}, source
    )


def restore_version(
    match: Match,
    version: ResultVersion | int,
    user,
    reason: str,
    kind: str = Kind.CORRECTION,
    source: str = "",
) -> ResultVersion:
    """Make an earlier version count again: a new version copying its record (re-scored by
    the engine), counting at once; nothing is deleted. ``kind`` is ``correction`` for the
    chief referee, ``ruling`` when arbitration overturns a ruling."""
    require_reason(reason)
    number = version.number if isinstance(version, ResultVersion) else version
    earlier = ResultVersion.objects.filter(match=match, number=number).first()
    if earlier is None:
        raise ResultError(_("Version %(n)s does not exist."), "version", Code.CONFLICT, n=number)
    if earlier.kind == Kind.VOID:
        outcome, stored = earlier.outcome, earlier.record
    else:
        stored, outcome = score_record(match, earlier.record)
    return _append_latest(match, stored, outcome, user, kind, reason, {"restores": number}, source)


def chief_restore(match: Match, number: object, actor: Actor, reason: str) -> ResultVersion:
    """The chief referee makes an earlier version count again (a correction copying it)."""
    require_chief(actor, match, _("restore an earlier version"))
    require_open_round(match)
    return restore_version(match, base_number(number), actor.user, reason, source=actor.source)
