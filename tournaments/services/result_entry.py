"""Entering results: submit, forfeit, correct and void, each a new append-only version.

Who may enter is :func:`tournaments.services.results.require_enter` (a table referee of the
table, a live table key of it, or the chief referee; captains never enter). Confirming what
was entered is :mod:`tournaments.services.result_confirm`. A correction (counting at once)
and a void are the chief referee's, with a reason; a correction settles the match's open
disputes as ``corrected``. Every refused record (a bad record, a lost race) is an audit entry.

A void is a version of kind ``void`` that counts with the outcome ``{"void": true}``: it has
no ``match_points``, so standings treat the match as not played (no points, no tiebreaks),
while the round still sees the match as decided.

Optimistic concurrency: a submission carries ``base_version``, the number of the latest
version its author saw (0 for none), and is stored as number ``base_version + 1``. The unique
(match, number) constraint makes the second of two concurrent writers fail; it gets
:class:`~tournaments.services.results.ChangedMeanwhile` with the newer version and its own
record back, and the refused record is kept in the audit log. With an ``Idempotency-Key`` a
repeat of a stored submission answers the version first stored (marked ``replayed``).
:func:`append_version` is also how rulings and restores store their versions
(:mod:`tournaments.services.result_effects`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules_engine import presets as rule_presets
from rules_engine.phone import deal_key
from rules_engine.presets import forfeit_record, void_answer
from tournaments import results_merge
from tournaments.errors import Code, ServiceError
from tournaments.freshness import revision_batch
from tournaments.models import Match, ResultDispute, ResultVersion
from tournaments.results_merge import MINE
from tournaments.validation import BadInput, check_json

from . import idempotency, stage_rounds
from .audit import log_action
from .results import (
    Actor,
    ChangedMeanwhile,
    IdempotencyMismatch,
    Kind,
    MergeConflict,
    ResultError,
    ResultForbidden,
    after_counting,
    base_number,
    clear_counting,
    counted,
    counting_version,
    is_chief,
    latest_version,
    lock,
    require_chief,
    require_enter,
    require_open_round,
    require_whole,
    score_record,
)


def append_version(
    match: Match,
    record: dict,
    outcome: dict,
    actor: Actor,
    number: int,
    kind: str,
    counting: bool,
    note: str = "",
    audit: dict | None = None,
    idem: Idem | None = None,
) -> ResultVersion:
    """Insert version ``number``; IntegrityError when that number (or the submission's
    Idempotency-Key) is taken (concurrency)."""
    with revision_batch():
        version = ResultVersion(
            match=match,
            number=number,
            kind=kind,
            record=record,
            outcome=outcome,
            note=note,
            created_by=actor.user,
            via=actor.via,
            source=actor.source[:120],
            referee=actor.table_key.referee if actor.table_key is not None else actor.user,
        )
        if idem is not None:
            version.idempotency_key, version.idempotency_hash = idem.key, idem.digest
        if counting:
            # Version 1 has no predecessor that could count, so there is nothing to switch
            # and no lock to take: a concurrent version 1 fails the unique number, and the
            # partial unique constraint still allows one counting version per match.
            if number > 1:
                lock(match)
                clear_counting(match)
            counted(version, actor.user)
        version.save(force_insert=True)
        if counting:
            after_counting(match)
        data = {"version": number, "kind": kind, "via": actor.via, "counting": counting}
        if actor.table_key is not None:
            data["table_key"] = actor.table_key.pk
        if idem is not None:
            data["idempotency_key"] = str(idem.key)
        log_action(
            match.round.event,
            actor.user,
            f"result.{kind}",
            match,
            data=data | (audit or {}),
            reason=note,
            source=actor.source,
        )
    return version


@dataclass(frozen=True)
class Idem:
    """A submission's Idempotency-Key and the fingerprint of its body."""

    key: Any
    digest: str

    @classmethod
    def of(cls, key: object, action: str, body: dict) -> Idem | None:
        return None if key is None else cls(key, idempotency.fingerprint(action, body))


def _replay(match: Match, idem: Idem | None) -> ResultVersion | None:
    """The version first stored under the submission's key (marked ``replayed``), or None;
    IdempotencyMismatch when the key came with another body."""
    version = idempotency.stored(match, idem.key) if idem is not None else None
    if version is None:
        return None
    if version.idempotency_hash != idem.digest:
        raise IdempotencyMismatch(idem.key)
    version.replayed = True
    return version


def _append_based(
    match,
    record,
    outcome,
    actor,
    base_version,
    kind,
    counting,
    note="",
    idem=None,
    audit=None,
    mine=None,
    started_from=None,
):
    """Store as ``base_version + 1``; a lost race answers ChangedMeanwhile, logged, with what a
    merge of ``mine`` (the phone's own record, default ``record``; started from version
    ``started_from``, default ``base_version``) onto the newer version would do; a repeat of
    a stored submission (same Idempotency-Key) answers the version first stored."""
    base = base_number(base_version)
    try:
        return append_version(
            match, record, outcome, actor, base + 1, kind, counting, note, audit=audit, idem=idem
        )
    except IntegrityError:
        replayed = _replay(match, idem)
        if replayed is not None:
            return replayed
        latest = latest_version(match)
        if latest is None or latest.number <= base:
            raise
    log_action(
        match.round.event,
        actor.user,
        "result.conflict",
        match,
        data={
            "base_version": base,
            "latest": latest.number,
            "record": record,
            "kind": kind,
            "via": actor.via,
        },
        reason="",
        source=actor.source,
    )
    changed = ChangedMeanwhile(latest, record if mine is None else mine, by=actor.user)
    if kind in (Kind.SUBMISSION, Kind.CORRECTION):
        start = base if started_from is None else started_from
        changed.merge = merge_summary(match, start, latest, record if mine is None else mine)
    raise changed


def _record_of(match: Match, number: int) -> dict | None:
    if not number:
        return None
    version = ResultVersion.objects.filter(match=match, number=number).only("record").first()
    return version.record if version is not None else None


def merge_summary(match: Match, start: int, latest: ResultVersion, mine: object) -> dict:
    """What merging ``mine`` (started from version ``start``) onto ``latest`` does, deal by
    deal (tournaments.results_merge): the phone marks the deals and asks for a choice where
    both changed the same deal; ``official``: the deals a correction or a ruling changed
    since ``start`` (only the chief referee may put another deal in their place)."""
    found = results_merge.merge(_record_of(match, start), latest.record, mine, same=deal_key)
    summary = {"base_version": start, "onto": latest.number} | found.summary()
    return summary | {"official": _official_deals(match, start, latest.number)}


OFFICIAL_KINDS = (Kind.CORRECTION, Kind.RULING, Kind.VOID)


def _official_deals(match: Match, start: int, onto: int) -> list[int]:
    """The deals a correction, a ruling or a void changed in versions ``start`` + 1 … ``onto``
    (0: the whole record), each against the version before it."""
    rows = list(
        ResultVersion.objects.filter(match=match, number__gte=max(start, 1), number__lte=onto)
        .order_by("number")
        .values_list("number", "kind", "record")
    )
    records = {number: record for number, _kind, record in rows}
    found: set[int] = set()
    for number, kind, record in rows:
        if number > start and kind in OFFICIAL_KINDS:
            found |= set(results_merge.changed_deals(records.get(number - 1), record, deal_key))
    return sorted(found)


def _merged(match, record, actor, base_version, merge_base, overrides, note):
    """ "Mine over the newer version": ``record`` (the phone's, started from version
    ``merge_base``) merged onto version ``base_version`` deal by deal. Deals only one side
    changed are taken from it; a deal both changed needs a choice in ``overrides``; taking
    mine over another person's change needs a reason (the note). Returns the merged record
    and the audit data."""
    start = base_number(merge_base)
    onto = base_number(base_version)
    if start > onto:
        raise ResultError(
            _("merge_base must be a version before base_version %(onto)s."),
            "merge_base",
            Code.CONFLICT,
            onto=onto,
        )
    if not isinstance(record, dict):
        raise ResultError(_("record must be a match record object (SPEC 4.5)."), "record")
    if overrides is not None and not (
        isinstance(overrides, dict) and all(v in results_merge.CHOICES for v in overrides.values())
    ):
        raise ResultError(_('overrides maps a deal number to "mine" or "theirs".'), "overrides")
    _check_base_exists(match, merge_base)
    theirs = ResultVersion.objects.filter(match=match, number=onto).first()
    if theirs is None:  # nothing stored yet: nothing to merge onto
        return record, None
    found = results_merge.merge(
        _record_of(match, start), theirs.record, record, overrides, same=deal_key
    )
    official = _official_deals(match, start, onto)
    summary = {"base_version": start, "onto": onto} | found.summary() | {"official": official}
    if not found.clean:
        log_action(
            match.round.event,
            actor.user,
            "result.conflict",
            match,
            data={"merge": summary, "record": record, "via": actor.via},
            reason="",
            source=actor.source,
        )
        raise MergeConflict(theirs, record, summary)
    # a correction or a ruling stays unless the chief referee undoes it
    # (the whole record, a forfeit's or final levels', undoes any deal the correction changed)
    undone = [
        k
        for k, v in found.chosen.items()
        if v == MINE
        and (0 in official or _number(k) in official or (k == results_merge.WHOLE and official))
    ]
    if undone and not is_chief(actor, match.round.event):
        raise ResultForbidden(
            _(
                "Deal %(deals)s was changed by the chief referee's correction or a ruling: only "
                "the chief referee may put yours in its place. Keep it, or call the chief referee."
            ),
            "overrides",
            deals=", ".join(undone),
        )
    if MINE in found.chosen.values() and not (note or "").strip():
        raise ResultError(
            _(
                "Yours over another person's change (%(deals)s) needs a reason: write it in the "
                "note; it goes in the audit log."
            ),
            "note",
            deals=", ".join(k for k, v in found.chosen.items() if v == MINE),
        )
    return found.record, {"merge": summary}


def _number(name: str) -> int | None:
    return int(name) if name.isdigit() else None


def _check_base_exists(match: Match, base_version: object) -> None:
    base = base_number(base_version)
    if base and not ResultVersion.objects.filter(match=match, number=base).exists():
        latest = latest_version(match)
        raise ResultError(
            _("base_version %(base)s does not exist; the latest version is %(latest)s."),
            "base_version",
            Code.CONFLICT,
            base=base,
            latest=latest.number if latest else 0,
        )


def submit(
    match: Match,
    record: object,
    actor: Actor,
    base_version: object,
    *,
    confirm=False,
    note="",
    idempotency_key=None,
    merge_base=None,
    overrides=None,
) -> ResultVersion:
    """Enter a result. ``confirm=True`` (chief referee only) makes it count at once.
    With ``idempotency_key`` a repeat answers the version first stored (``replayed``).

    With ``merge_base`` ("mine over the newer version" after a 409): ``record`` is the
    phone's, started from version ``merge_base``, merged deal by deal onto version
    ``base_version`` (the newer one) and stored as ``base_version + 1``: the deals the phone
    did not change keep the newer version's (a chief's correction stays); a deal both changed
    needs a choice in ``overrides`` ({"3": "mine" | "theirs"}), else MergeConflict."""
    require_enter(actor, match, open_round=False)
    body = {"record": record, "base_version": base_version, "note": note, "confirm": confirm}
    if merge_base is not None:
        body |= {"merge_base": merge_base, "overrides": overrides or {}}
    idem = Idem.of(idempotency_key, Kind.SUBMISSION, body)
    replayed = _replay(match, idem)
    if replayed is not None:
        return replayed
    require_open_round(match)
    if confirm:
        require_chief(actor, match, _("confirm a result as it is entered"))
    _check_base_exists(match, base_version)
    mine, audit = record, None
    if merge_base is not None:
        record, audit = _merged(match, record, actor, base_version, merge_base, overrides, note)
    stored, outcome = _scored_or_logged(match, record, actor)
    if confirm:
        require_whole(stored, outcome)  # counting at once: only a whole match
    version = _append_based(
        match,
        stored,
        outcome,
        actor,
        base_version,
        Kind.SUBMISSION,
        bool(confirm),
        note,
        idem,
        audit=audit,
        mine=mine,
        started_from=merge_base,
    )
    _log_merge(match, actor, version, audit, note)
    return version


def _log_merge(match, actor, version, audit, note) -> None:
    if audit is not None and not getattr(version, "replayed", False):
        log_action(
            match.round.event,
            actor.user,
            "result.merge",
            match,
            data=audit["merge"] | {"version": version.number, "via": actor.via},
            reason=note,
            source=actor.source,
        )


def mark_absent(
    match: Match,
    absent: object,
    actor: Actor,
    base_version: object,
    note: str = "",
    idempotency_key=None,
    merge_base=None,
    overrides=None,
) -> ResultVersion:
    """A forfeit: ``absent`` is "EW", "NS" or "both"; the engine scores it. The chief
    referee's forfeit counts at once; a table referee's awaits confirmation.

    A forfeit resubmitted after a 409 (``merge_base``: the version the phone saw) takes the
    merge rule of :func:`submit`: a forfeit replaces the whole record, so onto a newer
    version that changed the record it is a conflict on ``"record"``; it is stored only with
    the choice ``{"record": "mine"}`` and a reason, and over a correction or a ruling only by
    the chief referee (else refused, saying to keep the newer version or call the chief)."""
    record = forfeit_record(match.round.event.game, absent)
    chief = is_chief(actor, match.round.event)
    return submit(
        match,
        record,
        actor,
        base_version,
        confirm=chief,
        note=note,
        idempotency_key=idempotency_key,
        merge_base=merge_base,
        overrides=overrides,
    )


def correct(
    match: Match,
    record: object,
    actor: Actor,
    base_version: object,
    reason: str,
    idempotency_key=None,
    merge_base=None,
    overrides=None,
) -> ResultVersion:
    """The chief referee's correction: a new version that counts at once. With
    ``merge_base`` (after a 409, the version the correction was started from) it is merged
    deal by deal onto ``base_version`` as :func:`submit` merges: the deals another person
    changed meanwhile stay unless the chief chooses hers (``overrides``)."""
    require_chief(actor, match, _("correct a result"))
    body = {"record": record, "base_version": base_version, "reason": reason}
    if merge_base is not None:
        body |= {"merge_base": merge_base, "overrides": overrides or {}}
    idem = Idem.of(idempotency_key, Kind.CORRECTION, body)
    replayed = _replay(match, idem)
    if replayed is not None:
        return replayed
    require_open_round(match)
    require_reason(reason)
    _check_base_exists(match, base_version)
    mine, audit = record, None
    if merge_base is not None:
        record, audit = _merged(match, record, actor, base_version, merge_base, overrides, reason)
    stored, outcome = _scored_or_logged(match, record, actor)
    _require_change(match, stored)
    require_whole(stored, outcome)  # a correction counts at once: only a whole match
    version = _append_based(
        match,
        stored,
        outcome,
        actor,
        base_version,
        Kind.CORRECTION,
        True,
        reason,
        idem,
        audit=audit,
        mine=mine,
        started_from=merge_base,
    )
    _log_merge(match, actor, version, audit, reason)
    _close_disputes(match, actor, ResultDispute.Decision.CORRECTED, reason)
    return version


def void(match: Match, actor: Actor, base_version: object, reason: str) -> ResultVersion:
    """The chief referee voids the match: it counts as not played (no points)."""
    require_chief(actor, match, _("void a result"))
    require_open_round(match)
    require_reason(reason)
    _check_base_exists(match, base_version)
    record, outcome = void_record(match)
    return _append_based(match, record, outcome, actor, base_version, Kind.VOID, True, reason)


def _without_settings(record: dict) -> dict:
    return {k: v for k, v in (record or {}).items() if k != "settings"}


def _require_change(match: Match, stored: dict) -> None:
    """A correction must change something against the counting version (or, when nothing
    counts, the latest one)."""
    reference = counting_version(match) or latest_version(match)
    if reference is not None and _without_settings(reference.record) == _without_settings(stored):
        raise ResultError(
            _("This correction changes nothing against version %(n)s; nothing was saved."),
            "record",
            n=reference.number,
        )


def void_record(match: Match) -> tuple[dict, dict]:
    """A void: the match counts as not played (no points for either side)."""
    return rule_presets.void_record(match.round.event.game), void_answer()


def require_reason(reason: object) -> None:
    if not isinstance(reason, str) or not reason.strip():
        raise ResultError(_("Give a reason: it goes in the audit log."), "reason")


def _scored_or_logged(match: Match, record: object, actor: Actor) -> tuple[dict, dict]:
    """Score a record; a refused one leaves an audit entry with the record and the reason."""
    event = match.round.event
    try:
        check_json(record, "record")  # a NUL or a deep record is refused, and never logged
    except BadInput as err:
        raise ResultError.from_error(err) from None
    try:
        stored, outcome = score_record(match, record)
        stage_rounds.require_winner(match, outcome)  # a knockout match must produce a winner
        return stored, outcome
    except ServiceError as err:
        log_action(
            event,
            actor.user,
            "result.refused",
            match,
            data={"record": record, "field": err.field, "via": actor.via},
            reason=err.message,
            source=actor.source,
        )
        raise


def _close_disputes(match: Match, actor: Actor, decision: str, note: str) -> None:
    """A correction settles the match's open disputes."""
    ResultDispute.objects.filter(match=match, decided_at__isnull=True).update(
        decided_at=timezone.now(),
        decided_by=actor.user,
        decided_by_name=actor.user.username if actor.user else "",
        decision=decision,
        decision_note=note[:2000],
    )
