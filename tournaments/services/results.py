"""Match results: append-only versions, confirmation, corrections, voids and rulings.

Nothing entered is ever lost: every submission, correction, void, ruling effect or restore is
a new :class:`ResultVersion` (who, when, via what, from where), and every refused attempt is an
audit entry holding the refused record. The version that counts for standings is the one
flagged ``is_counting``; the database allows at most one per match.

Who may do what (enforced here, so pages and the API behave alike):

- **enter** a result (submit, forfeit): a table referee assigned to the table, a live table
  key of that table, or the chief referee. Captains never enter results.
- **confirm** the latest version (the number the confirmer saw must still be the latest):
  the chief referee (counts at once); a *second* referee, i.e. a referee allowed to write
  the table who did not create that version (counts at once); or the captains of the two
  teams, each for their own team (counts once both have confirmed). A table key cannot
  confirm. Since captains never enter results, a captain never confirms their own entry.
- **correct** (a new version, kind correction, counting at once), **void** and **restore**
  an earlier version: the chief referee only, with a reason.
- **rulings** (arbitration) and **restores**: :mod:`tournaments.services.result_effects`.

A void is a version of kind ``void`` that counts with the outcome ``{"void": true}``: it has
no ``match_points``, so standings treat the match as not played (no points, no tiebreaks),
while the round still sees the match as decided.

Optimistic concurrency: a submission carries ``base_version``, the number of the latest
version its author saw (0 for none), and is stored as number ``base_version + 1``. The unique
(match, number) constraint makes the second of two concurrent writers fail; it gets
:class:`ChangedMeanwhile` with the newer version and its own record back, and the refused
record is kept in the audit log. Switching the counting version locks the match row
(``select_for_update``; version 1 switches nothing and needs no lock) and the partial unique
constraint guarantees one counting version.
When a version starts counting, the event revision is bumped in the same transaction (public
answers and standings are recomputed lazily on the next read).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules_engine import api as rules_api
from rules_engine import presets as rule_presets
from rules_engine import seating
from rules_engine.errors import RulesError
from rules_engine.presets import forfeit_record, void_answer
from tournaments import glossary, permissions
from tournaments.errors import Forbidden, ServiceError
from tournaments.models import (
    Match,
    ResultConfirmation,
    ResultDispute,
    ResultVersion,
    Round,
    TableKey,
)
from tournaments.standings.service import revision_batch
from tournaments.validation import BadInput, check_json

from . import idempotency, match_formats, round_close, stage_rounds
from .audit import client_address, log_action

Kind = ResultVersion.Kind
Capacity = ResultConfirmation.Capacity
OPEN_ROUND_STATUSES = (Round.Status.PUBLISHED, Round.Status.IN_PLAY, Round.Status.COMPLETE)


class ResultError(ServiceError):
    """A refused result action."""


class ResultForbidden(ResultError, Forbidden):
    """The actor may not do this result action here."""


class NotLoggedIn(ResultForbidden):
    """Nobody is logged in (a login expired): log in again, nothing entered is lost."""

    status = 401

    def __init__(self) -> None:
        super().__init__(
            _("Your login has expired: log in again. The deals you entered are kept."), "login"
        )


class ChangedMeanwhile(ResultError):
    """Someone saved a newer version first; ``latest`` is it, ``record`` the refused one."""

    status = 409

    def __init__(self, latest: ResultVersion, record: dict | None = None, by=None) -> None:
        own = by is not None and by.pk is not None and latest.created_by_id == by.pk
        if own:  # the same person saved it (another tab or phone): nobody else changed it
            super().__init__(
                _(
                    "Version %(number)s is already saved: your own earlier save (another tab "
                    "or phone). This entry was not saved; review version %(number)s and submit "
                    "again if it differs."
                ),
                "base_version",
                number=latest.number,
            )
        else:
            who = glossary.person(latest.created_by, latest.created_by_name) or glossary.word(
                glossary.VIA, latest.via, default="?"
            )
            super().__init__(
                _(
                    "Changed meanwhile: version %(number)s was saved by %(who)s. "
                    "Your entry was not saved; review the newer version and submit again."
                ),
                "base_version",
                number=latest.number,
                who=who,
            )
        self.latest = latest
        self.record = record

    def extra(self) -> dict:
        return {"your_record": self.record}


class IdempotencyMismatch(ResultError):
    """The Idempotency-Key was used before on this match with another body."""

    status = 422

    def __init__(self, key) -> None:
        super().__init__(
            _(
                "Idempotency-Key %(key)s was already used for another submission on this match; "
                "make a new key for a new submission."
            )
            % {"key": key},
            idempotency.HEADER,
        )


@dataclass(frozen=True)
class Actor:
    """Who acts: a logged-in user, or a table device holding a table key."""

    user: Any = None
    table_key: TableKey | None = None
    via: str = "web"
    source: str = ""

    @classmethod
    def from_request(cls, request, via: str = "web", table_key: TableKey | None = None) -> Actor:
        user = request.user if request.user.is_authenticated else None
        return cls(user, table_key, "table-key" if table_key else via, client_address(request))


# --- reading -----------------------------------------------------------------------------


def latest_version(match: Match) -> ResultVersion | None:
    return (
        ResultVersion.objects.filter(match=match)
        .select_related("created_by")
        .order_by("-number")
        .first()
    )


def counting_version(match: Match) -> ResultVersion | None:
    return ResultVersion.objects.filter(match=match, is_counting=True).first()


def history(match: Match) -> list[ResultVersion]:
    """Every version of the match, oldest first, with its confirmations."""
    return list(
        ResultVersion.objects.filter(match=match)
        .select_related("created_by", "confirmed_by")
        .prefetch_related("confirmations__user", "confirmations__team")
        .order_by("number")
    )


def current_round(tournament) -> Round | None:
    """The latest round past its draft (the one being played or just played)."""
    return (
        Round.objects.filter(tournament=tournament)
        .exclude(status=Round.Status.DRAFT)
        .order_by("-number")
        .first()
    )


def table_match(tournament, table_number: int) -> Match | None:
    """The match at ``table_number`` in the current round."""
    round_ = current_round(tournament)
    if round_ is None:
        return None
    return (
        Match.objects.filter(round=round_, table_number=table_number)
        .select_related("round__tournament", "home", "away")
        .first()
    )


def seats(match: Match) -> list[dict]:
    """Who sits where (the engine's seating: rules_engine.seating)."""
    rows = []
    for side, team in (("EW", match.home), ("NS", match.away)):
        if team is None:
            continue
        for player in team.players.all():
            seat = seating.seat_of(side, player.seat_order)
            rows.append({"seat": seat, "side": side, "team": team.name, "player": player.name})
    return sorted(rows, key=lambda row: seating.SEAT_ORDER.index(row["seat"]))


# --- permissions -------------------------------------------------------------------------


def is_chief(actor: Actor, tournament) -> bool:
    """The chief referee's rights: correct, void, restore, confirm at entry, any table."""
    return permissions.may(actor.user, tournament, "result.correct")


def can_enter(actor: Actor, match: Match) -> bool:
    tournament = match.round.tournament
    key = actor.table_key
    if key is not None:
        return (
            key.is_live
            and key.tournament_id == tournament.pk
            and key.table_number == match.table_number
        )
    return permissions.can_write_table(actor.user, tournament, match.table_number)


def _require_enter(actor: Actor, match: Match, open_round: bool = True) -> None:
    if match.is_bye:
        raise ResultError(_("A bye has no result to enter."), "match")
    if actor.user is None and actor.table_key is None:
        raise NotLoggedIn()
    if not can_enter(actor, match):
        raise ResultForbidden(_("You may not enter results at table %(table)s."),
                              table=match.table_number)  # fmt: skip
    if open_round:
        require_open_round(match)


def require_chief(actor: Actor, match: Match, what: str) -> None:
    """Refused (ResultForbidden) unless the actor has the chief referee's rights here."""
    permissions.require(actor.user, match.round.tournament, "result.correct", ResultForbidden,
                        _("Only the chief referee may %(what)s."), what=what)  # fmt: skip


def require_open_round(match: Match) -> None:
    status = match.round.status
    if status == Round.Status.FINALISED:
        raise ResultError(
            _("Round %(n)s is finalised; the chief referee must reopen it first."),
            "round",
            n=match.round.number,
        )
    if status not in OPEN_ROUND_STATUSES:
        raise ResultError(_("Round %(n)s is not published yet."), "round", n=match.round.number)


# --- scoring -----------------------------------------------------------------------------


def score_record(match: Match, record: object) -> tuple[dict, dict]:
    """The record as stored (game, preset, settings and match format of the event) and the
    engine's answer. Under a match format the engine refuses a deal after the end, naming
    the deal and why the match was over (field ``record.deals[i]``)."""
    tournament = match.round.tournament
    if not isinstance(record, dict):
        raise ResultError(_("record must be a match record object (SPEC 4.5)."), "record")
    game = record.get("game", tournament.game)
    if game != tournament.game:
        raise ResultError(
            _("This event plays %(game)s, not %(other)s."),
            "record.game",
            game=tournament.game,
            other=game,
        )
    preset = record.get("preset", tournament.preset)
    if preset != tournament.preset:
        raise ResultError(_("This event scores with the preset %(preset)s."), "record.preset",
                          preset=tournament.preset)  # fmt: skip
    stored = match_formats.with_format(match, record)
    stored = {k: v for k, v in stored.items() if k != "settings"}
    stored |= {"game": tournament.game, "preset": tournament.preset}
    if tournament.settings:
        stored["settings"] = tournament.settings
    try:
        outcome = rules_api.score(stored)
    except RulesError as err:
        raise ResultError.from_rules(err, "record") from None
    return stored, outcome


def preview(match: Match, record: object, actor: Actor) -> dict:
    """The engine's answer for a record, stored nowhere (the table page's running levels)."""
    if actor.user is None and actor.table_key is None:
        raise NotLoggedIn()
    if not (can_enter(actor, match) or is_chief(actor, match.round.tournament)):
        raise ResultForbidden(_("You may not enter results at this table."))
    return score_record(match, record)[1]


def _scored_or_logged(match: Match, record: object, actor: Actor) -> tuple[dict, dict]:
    """Score a record; a refused one leaves an audit entry with the record and the reason."""
    tournament = match.round.tournament
    try:
        check_json(record, "record")  # a NUL or a deep record is refused, and never logged
    except BadInput as err:
        raise ResultError(err.message, err.field) from None
    try:
        stored, outcome = score_record(match, record)
        stage_rounds.require_winner(match, outcome)  # a knockout match must produce a winner
        return stored, outcome
    except ServiceError as err:
        log_action(tournament, actor.user, "result.refused", match,
                   data={"record": record, "field": err.field, "via": actor.via},
                   reason=err.message, source=actor.source)  # fmt: skip
        raise


# --- writing -----------------------------------------------------------------------------


def base_number(base_version: object) -> int:
    if isinstance(base_version, bool) or not isinstance(base_version, int) or base_version < 0:
        raise ResultError(
            _("base_version must be the number of the latest version you saw (0 for none)."),
            "base_version",
        )
    return base_version


def lock(match: Match) -> None:
    """Lock the match row until the end of the transaction (serialises counting switches)."""
    list(Match.objects.select_for_update().filter(pk=match.pk).order_by().values_list("pk"))


def _clear_counting(match_id: int, keep_pk: int | None = None) -> None:
    """Inside a transaction holding the match row lock: no version of the match counts."""
    ResultVersion.objects.filter(match_id=match_id, is_counting=True).exclude(pk=keep_pk).update(
        is_counting=False
    )


def _counted(version: ResultVersion, user) -> None:
    """Mark ``version`` counting (fields only) as confirmed by ``user`` now."""
    version.is_counting = True
    version.confirmed_at = timezone.now()
    version.confirmed_by = user


def _after_counting(match: Match) -> None:
    """A version of ``match`` started counting: the round may be complete. (Standings follow:
    saving a counting version bumps the event revision, as the transaction's last statement
    inside :func:`revision_batch`.)"""
    round_close.note_decided(match.round, match.table_number)


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
            match=match, number=number, kind=kind, record=record, outcome=outcome, note=note,
            created_by=actor.user, via=actor.via, source=actor.source[:120],
            referee=actor.table_key.referee if actor.table_key is not None else actor.user,
        )  # fmt: skip
        if idem is not None:
            version.idempotency_key, version.idempotency_hash = idem.key, idem.digest
        if counting:
            # Version 1 has no predecessor that could count, so there is nothing to switch
            # and no lock to take: a concurrent version 1 fails the unique number, and the
            # partial unique constraint still allows one counting version per match.
            if number > 1:
                lock(match)
                _clear_counting(match.pk)
            _counted(version, actor.user)
        version.save(force_insert=True)
        if counting:
            _after_counting(match)
        data = {"version": number, "kind": kind, "via": actor.via, "counting": counting}
        if actor.table_key is not None:
            data["table_key"] = actor.table_key.pk
        if idem is not None:
            data["idempotency_key"] = str(idem.key)
        log_action(match.round.tournament, actor.user, f"result.{kind}", match,
                   data=data | (audit or {}), reason=note, source=actor.source)  # fmt: skip
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


def _append_based(match, record, outcome, actor, base_version, kind, counting, note="", idem=None):
    """Store as ``base_version + 1``; a lost race answers ChangedMeanwhile, logged; a repeat of
    a stored submission (same Idempotency-Key) answers the version first stored."""
    base = base_number(base_version)
    try:
        return append_version(
            match, record, outcome, actor, base + 1, kind, counting, note, idem=idem
        )
    except IntegrityError:
        replayed = _replay(match, idem)
        if replayed is not None:
            return replayed
        latest = latest_version(match)
        if latest is None or latest.number <= base:
            raise
    log_action(match.round.tournament, actor.user, "result.conflict", match,
               data={"base_version": base, "latest": latest.number, "record": record,
                     "kind": kind, "via": actor.via},
               reason="changed meanwhile", source=actor.source)  # fmt: skip
    raise ChangedMeanwhile(latest, record, by=actor.user)


def _check_base_exists(match: Match, base_version: object) -> None:
    base = base_number(base_version)
    if base and not ResultVersion.objects.filter(match=match, number=base).exists():
        latest = latest_version(match)
        raise ResultError(
            _("base_version %(base)s does not exist; the latest version is %(latest)s."),
            "base_version",
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
) -> ResultVersion:
    """Enter a result. ``confirm=True`` (chief referee only) makes it count at once.
    With ``idempotency_key`` a repeat answers the version first stored (``replayed``)."""
    _require_enter(actor, match, open_round=False)
    body = {"record": record, "base_version": base_version, "note": note, "confirm": confirm}
    idem = Idem.of(idempotency_key, Kind.SUBMISSION, body)
    replayed = _replay(match, idem)
    if replayed is not None:
        return replayed
    require_open_round(match)
    if confirm:
        require_chief(actor, match, _("confirm a result as it is entered"))
    _check_base_exists(match, base_version)
    stored, outcome = _scored_or_logged(match, record, actor)
    return _append_based(match, stored, outcome, actor, base_version, Kind.SUBMISSION,
                         bool(confirm), note, idem)  # fmt: skip


def mark_absent(
    match: Match,
    absent: object,
    actor: Actor,
    base_version: object,
    note: str = "",
    idempotency_key=None,
) -> ResultVersion:
    """A forfeit: ``absent`` is "EW", "NS" or "both"; the engine scores it. The chief
    referee's forfeit counts at once; a table referee's awaits confirmation."""
    record = forfeit_record(match.round.tournament.game, absent)
    chief = is_chief(actor, match.round.tournament)
    return submit(match, record, actor, base_version, confirm=chief, note=note,
                  idempotency_key=idempotency_key)  # fmt: skip


def correct(
    match: Match,
    record: object,
    actor: Actor,
    base_version: object,
    reason: str,
    idempotency_key=None,
) -> ResultVersion:
    """The chief referee's correction: a new version that counts at once."""
    require_chief(actor, match, _("correct a result"))
    idem = Idem.of(idempotency_key, Kind.CORRECTION,
                   {"record": record, "base_version": base_version, "reason": reason})  # fmt: skip
    replayed = _replay(match, idem)
    if replayed is not None:
        return replayed
    require_open_round(match)
    require_reason(reason)
    _check_base_exists(match, base_version)
    stored, outcome = _scored_or_logged(match, record, actor)
    _require_change(match, stored)
    version = _append_based(match, stored, outcome, actor, base_version, Kind.CORRECTION, True,
                            reason, idem)  # fmt: skip
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
            _("This correction changes nothing against version %(n)s; nothing was saved.")
            % {"n": reference.number},
            "record",
        )


def void_record(match: Match) -> tuple[dict, dict]:
    """A void: the match counts as not played (no points for either side)."""
    return rule_presets.void_record(match.round.tournament.game), void_answer()


def require_reason(reason: object) -> None:
    if not isinstance(reason, str) or not reason.strip():
        raise ResultError(_("Give a reason: it goes in the audit log."), "reason")


# --- confirming --------------------------------------------------------------------------


CONFIRMERS = _(
    "Only the captains of the two teams, a second referee or the chief referee may confirm "
    "this result."
)


def _capacity(actor: Actor, match: Match, version: ResultVersion):
    tournament = match.round.tournament
    if actor.table_key is not None or actor.user is None:
        raise ResultForbidden(_("Log in to confirm: a table key cannot confirm a result."))
    permissions.require(actor.user, tournament, "result.confirm", ResultForbidden, CONFIRMERS)
    if actor.user.pk in (version.created_by_id, version.referee_id):
        # Whoever entered the version, or the referee whose table key entered it, never
        # confirms it: not as a referee, a captain or the chief.
        raise ResultForbidden(
            _("You entered this version: another referee, the chief referee or both "
              "captains must confirm it.")
        )  # fmt: skip
    if is_chief(actor, tournament):
        return Capacity.CHIEF, None
    if permissions.can_write_table(actor.user, tournament, match.table_number):
        if version.via == "table-key" and version.referee_id is None:
            raise ResultForbidden(
                _("This version was entered with the table link, which belongs to no named "
                  "referee: the chief referee or both captains must confirm it.")
            )  # fmt: skip
        return Capacity.REFEREE, None
    teams = permissions.captain_team_ids(actor.user, tournament)
    for team_id in (match.home_id, match.away_id):
        if team_id in teams:
            return Capacity.CAPTAIN, team_id
    raise ResultForbidden(CONFIRMERS)


def may_confirm(actor: Actor, match: Match, version: ResultVersion | None) -> bool:
    """Whether ``actor`` may confirm ``version`` now (the page shows the button only then):
    it is the latest, not counting, not disputed, and the actor's team has not confirmed."""
    if version is None or version.is_counting:
        return False
    try:
        capacity, team_id = _capacity(actor, match, version)
        _require_undisputed(version)
    except ResultError:
        return False
    confirmed = ResultConfirmation.objects.filter(version=version)
    if capacity == Capacity.CAPTAIN:
        confirmed = confirmed.filter(team_id=team_id)
    else:
        confirmed = confirmed.filter(user=actor.user)
    return not confirmed.exists()


def confirm(match: Match, number: object, actor: Actor) -> ResultVersion:
    """Confirm version ``number`` (it must still be the latest). Returns the version,
    whose ``is_counting`` says whether it counts now."""
    number = base_number(number)
    with revision_batch():
        lock(match)
        latest = latest_version(match)
        if latest is None:
            raise ResultError(_("There is no result to confirm yet."), "version")
        if latest.number != number:
            raise ChangedMeanwhile(latest, by=actor.user)
        if latest.is_counting:
            raise ResultError(_("Version %(n)s already counts."), "version", n=number)
        capacity, team_id = _capacity(actor, match, latest)
        _require_undisputed(latest)
        if (
            capacity == Capacity.CAPTAIN
            and ResultConfirmation.objects.filter(version=latest, team_id=team_id).exists()
        ):
            raise ResultError(_("Your team has already confirmed this version."), "version")
        ResultConfirmation.objects.create(version=latest, user=actor.user, capacity=capacity,
                                          team_id=team_id, source=actor.source[:120])  # fmt: skip
        counts = capacity != Capacity.CAPTAIN or _both_captains(latest, match)
        if counts:
            _clear_counting(match.pk, latest.pk)
            _counted(latest, actor.user)
            latest.save(update_fields=["is_counting", "confirmed_at", "confirmed_by"])
            _after_counting(match)
        log_action(match.round.tournament, actor.user, "result.confirm", match,
                   data={"version": number, "capacity": capacity, "team": team_id,
                         "counting": counts},
                   source=actor.source)  # fmt: skip
    return latest


def _require_undisputed(version: ResultVersion) -> None:
    """An open dispute blocks counting until the chief referee decides it."""
    dispute = (
        ResultDispute.objects.filter(version=version, decided_at__isnull=True)
        .select_related("team")
        .first()
    )
    if dispute is not None:
        raise ResultError(
            _("Version %(n)s is disputed by %(team)s (%(reason)s): the chief referee decides "
              "before it can count.")
            % {"n": version.number, "team": dispute.team.name if dispute.team else "?",
               "reason": dispute.reason},
            "version",
        )  # fmt: skip


def _close_disputes(match: Match, actor: Actor, decision: str, note: str) -> None:
    """A correction settles the match's open disputes."""
    ResultDispute.objects.filter(match=match, decided_at__isnull=True).update(
        decided_at=timezone.now(), decided_by=actor.user,
        decided_by_name=actor.user.username if actor.user else "", decision=decision,
        decision_note=note[:2000],
    )  # fmt: skip


def _both_captains(version: ResultVersion, match: Match) -> bool:
    teams = set(
        ResultConfirmation.objects.filter(version=version, team__isnull=False).values_list(
            "team_id", flat=True
        )
    )
    return {match.home_id, match.away_id} <= teams
