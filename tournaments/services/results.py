"""Match results: what entering and confirming them share (errors, reading, rights, scoring).

Nothing entered is ever lost: every submission, correction, void, ruling effect or restore is
a new :class:`ResultVersion` (who, when, via what, from where), and every refused attempt is an
audit entry holding the refused record. The version that counts for standings is the one
flagged ``is_counting``; the database allows at most one per match.

This module is the shared base of the result services: the errors, the :class:`Actor`,
reading (latest, counting, history, the current round's table and its seats), who may enter
and the chief referee's rights, scoring a record (and :func:`preview`, stored nowhere), and
switching the counting version. Each action lives in one module of its concern:

- :mod:`tournaments.services.result_entry`: writing versions (submit, forfeit, correct, void).
- :mod:`tournaments.services.result_confirm`: confirming the latest version.
- :mod:`tournaments.services.result_effects`: rulings (arbitration) and restores.
- :mod:`tournaments.services.disputes`: a captain's dispute and the chief referee's decision.

Who may do what (enforced in the services, so pages and the API behave alike):

- **enter** a result (submit, forfeit): a table referee assigned to the table, a live table
  key of that table, or the chief referee. Captains never enter results.
- **confirm** the latest version (the number the confirmer saw must still be the latest):
  the chief referee (counts at once); a *second* referee, i.e. a referee allowed to write
  the table who did not create that version (counts at once); or the captains of the two
  teams, each for their own team (counts once both have confirmed). A table key cannot
  confirm. Since captains never enter results, a captain never confirms their own entry.
- **correct** (a new version, kind correction, counting at once), **void** and **restore**
  an earlier version: the chief referee only, with a reason.

Switching the counting version locks the match row (:func:`lock`, ``select_for_update``;
version 1 switches nothing and needs no lock) and the partial unique constraint guarantees
one counting version. When a version starts counting, the event revision is bumped in the
same transaction (public answers and standings are recomputed lazily on the next read).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules_engine import api as rules_api
from rules_engine import phone, seating
from rules_engine.errors import RulesError
from tournaments import glossary, permissions
from tournaments.errors import Code, Forbidden, ServiceError
from tournaments.models import Match, ResultVersion, Round, TableKey

from . import idempotency, match_formats, round_close
from .audit import client_address

Kind = ResultVersion.Kind
OPEN_ROUND_STATUSES = (Round.Status.PUBLISHED, Round.Status.IN_PLAY, Round.Status.COMPLETE)


class ResultError(ServiceError):
    """A refused result action."""

    details: dict | None = None  # more members of the API's answer (e.g. the deal refused)

    def extra(self) -> dict:
        return dict(self.details or {})


def refused_record(err: RulesError, record: dict) -> ResultError:
    """The engine's refusal of a record, with the code and details saying what it names
    (rules_engine.phone.refusal_code: one deal, one game or the record as a whole)."""
    error = ResultError.from_rules(err, "record")
    code, error.details = phone.refusal_code(err.field, record)
    error.code = Code(code)
    return error


class ResultForbidden(ResultError, Forbidden):
    """The actor may not do this result action here."""


class NotLoggedIn(ResultForbidden):
    """Nobody is logged in (a login expired): log in again, nothing entered is lost."""

    code = Code.LOGIN

    def __init__(self) -> None:
        super().__init__(
            _("Your login has expired: log in again. The deals you entered are kept."), "login"
        )


class ChangedMeanwhile(ResultError):
    """Someone saved a newer version first; ``latest`` is it, ``record`` the refused one."""

    code = Code.CHANGED_MEANWHILE

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
        self.merge: dict | None = None  # what a merge onto ``latest`` would do (result_merge)

    def extra(self) -> dict:
        found = {"your_record": self.record}
        if self.merge is not None:
            found["merge"] = self.merge
        return found


class MergeConflict(ChangedMeanwhile):
    """ "Mine over the newer version": deals both sides changed differently need a choice each
    (``overrides``); ``conflicts`` names them. Nothing was saved."""

    code = Code.MERGE_CONFLICT

    def __init__(self, latest: ResultVersion, record: dict, merge: dict) -> None:
        super().__init__(latest, record)
        names = [str(n) for n in merge["conflicts"]] + [str(name) for name in merge["fields"]]
        ServiceError.__init__(
            self,
            _(
                "Not saved: deal %(deals)s changed both here and in version %(number)s. Choose, "
                "for each, the saved one or yours; yours over another person's change needs a "
                "reason."
            ),
            "overrides",
            deals=", ".join(names),
            number=latest.number,
        )
        self.merge = merge

    def extra(self) -> dict:
        return super().extra() | {"conflicts": self.merge["conflicts"]}


class IdempotencyMismatch(ResultError):
    """The Idempotency-Key was used before on this match with another body."""

    code = Code.IDEMPOTENCY_MISMATCH

    def __init__(self, key) -> None:
        super().__init__(
            _(
                "Idempotency-Key %(key)s was already used for another submission on this match; "
                "make a new key for a new submission."
            ),
            idempotency.HEADER,
            key=key,
        )


# The pages whose scripts call the API say so in this header; the version history then names
# the path (the table page), not "app". A label only: it grants nothing.
PAGE_HEADER = "HTTP_X_PAISAI_PAGE"
PAGE_VIA = {"table": "table-page", "match": "web"}


def page_via(request) -> str:
    """How an API request came: "table-page" from the table page's script, "web" from the
    match page's (the chief's correction), else "api"."""
    return PAGE_VIA.get((request.META.get(PAGE_HEADER) or "").strip().lower(), "api")


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


def current_round(event) -> Round | None:
    """The latest round past its draft (the one being played or just played)."""
    return (
        Round.objects.filter(event=event)
        .exclude(status=Round.Status.DRAFT)
        .order_by("-number")
        .first()
    )


def table_match(event, table_number: int) -> Match | None:
    """The match at ``table_number`` in the current round."""
    round_ = current_round(event)
    if round_ is None:
        return None
    return (
        Match.objects.filter(round=round_, table_number=table_number)
        .select_related("round__event", "home", "away")
        .first()
    )


def seats(match: Match) -> list[dict]:
    """Who sits where (the engine's seating: rules_engine.seating)."""
    rows = []
    for side, team in seating.by_side(match.home, match.away).items():
        if team is None:
            continue
        for player in team.players.all():
            seat = seating.seat_of(side, player.seat_order)
            rows.append({"seat": seat, "side": side, "team": team.name, "player": player.name})
    return sorted(rows, key=lambda row: seating.SEAT_ORDER.index(row["seat"]))


# --- permissions -------------------------------------------------------------------------


def is_chief(actor: Actor, event) -> bool:
    """The chief referee's rights: correct, void, restore, confirm at entry, any table."""
    return permissions.may(actor.user, event, "result.correct")


def can_enter(actor: Actor, match: Match) -> bool:
    event = match.round.event
    key = actor.table_key
    if key is not None:
        return key.is_live and key.event_id == event.pk and key.table_number == match.table_number
    return permissions.can_write_table(actor.user, event, match.table_number)


def require_enter(actor: Actor, match: Match, open_round: bool = True) -> None:
    if match.is_bye:
        raise ResultError(_("A bye has no result to enter."), "match")
    if actor.user is None and actor.table_key is None:
        raise NotLoggedIn()
    if not can_enter(actor, match):
        raise ResultForbidden(
            _("You may not enter results at table %(table)s."), table=match.table_number
        )
    if open_round:
        require_open_round(match)


def require_chief(actor: Actor, match: Match, what: str) -> None:
    """Refused (ResultForbidden) unless the actor has the chief referee's rights here."""
    permissions.require(
        actor.user,
        match.round.event,
        "result.correct",
        ResultForbidden,
        _("Only the chief referee may %(what)s."),
        what=what,
    )


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


def entry_closed(match: Match) -> str:
    """Why no result can be entered for ``match`` now, in the active language ("" while its
    round is open): the one rule :func:`require_open_round` enforces, so the table page says
    it and takes no entry instead of refusing only on submit (issue 35)."""
    try:
        require_open_round(match)
    except ResultError as err:
        event = match.round.event
        if event.status == event.Status.FINISHED:
            return str(_("The event is finished: its results are frozen."))
        return err.message
    return ""


# --- scoring -----------------------------------------------------------------------------


def engine_base(match: Match) -> dict:
    """What the event adds to every record of ``match`` (game, preset, settings, match
    format): the server and the phone's engine (rules_engine.phone) score with it."""
    event = match.round.event
    base = {"game": event.game, "preset": event.preset}
    if event.settings:
        base["settings"] = event.settings
    fmt = match_formats.format_of(match)
    if fmt is not None:
        base["format"] = fmt
    return base


def score_record(match: Match, record: object) -> tuple[dict, dict]:
    """The record as stored (game, preset, settings and match format of the event) and the
    engine's answer. Under a match format the engine refuses a deal after the end, naming
    the deal and why the match was over (field ``record.deals[i]``)."""
    event = match.round.event
    if not isinstance(record, dict):
        raise ResultError(_("record must be a match record object (SPEC 4.5)."), "record")
    game = record.get("game", event.game)
    if game != event.game:
        raise ResultError(
            _("This event plays %(game)s, not %(other)s."),
            "record.game",
            game=event.game,
            other=game,
        )
    preset = record.get("preset", event.preset)
    if preset != event.preset:
        raise ResultError(
            _("This event scores with the preset %(preset)s."),
            "record.preset",
            preset=event.preset,
        )
    match_formats.with_format(match, record)  # a record naming another format is refused
    stored = phone.stored(record, engine_base(match))
    try:
        outcome = rules_api.score(stored)
    except RulesError as err:
        raise refused_record(err, stored) from None
    return stored, outcome


def preview(match: Match, record: object, actor: Actor) -> dict:
    """The engine's answer for a record, stored nowhere (the table page's running levels)."""
    if actor.user is None and actor.table_key is None:
        raise NotLoggedIn()
    if not (can_enter(actor, match) or is_chief(actor, match.round.event)):
        raise ResultForbidden(_("You may not enter results at this table."))
    return score_record(match, record)[1]


# --- version numbers and counting ---------------------------------------------------


def require_whole(record: dict | None, outcome: dict | None, number: int | None = None) -> None:
    """A result counts only as a whole match: one the engine says is not over (fewer deals
    or games than the match needs, e.g. an idiom-chain record of 2 deals of 3) is refused,
    saying why (issue 35)."""
    why = match_formats.not_whole(record, outcome)
    if not why:
        return
    if number is None:
        raise ResultError(
            _("Not a whole match (%(why)s): a result counts only once the match is over."),
            "record",
            Code.MATCH_NOT_OVER,
            why=why,
        )
    raise ResultError(
        _(
            "Version %(n)s is not a whole match (%(why)s): it cannot be confirmed until the "
            "deals still to play are entered."
        ),
        "version",
        Code.MATCH_NOT_OVER,
        n=number,
        why=why,
    )


def base_number(base_version: object) -> int:
    if isinstance(base_version, bool) or not isinstance(base_version, int) or base_version < 0:
        raise ResultError(
            _("base_version must be the number of the latest version you saw (0 for none)."),
            "base_version",
        )
    return base_version


def lock(match: Match) -> None:
    """Lock the match row until the end of the transaction (serialises counting switches)."""
    list(
        Match.objects.select_for_update(no_key=True)
        .filter(pk=match.pk)
        .order_by()
        .values_list("pk")
    )


def clear_counting(match: Match, keep_pk: int | None = None) -> None:
    """Inside a transaction holding the match row lock: no version of the match counts."""
    versions = ResultVersion.objects.filter(match_id=match.pk, is_counting=True)
    versions = versions.exclude(pk=keep_pk).for_event(match.round.event_id)
    versions.update(is_counting=False)


def counted(version: ResultVersion, user) -> None:
    """Mark ``version`` counting (fields only) as confirmed by ``user`` now."""
    version.is_counting = True
    version.confirmed_at = timezone.now()
    version.confirmed_by = user


def after_counting(match: Match) -> None:
    """A version of ``match`` started counting: the round may be complete. (Standings follow:
    saving a counting version bumps the event revision, as the transaction's last statement
    inside :func:`revision_batch`.)"""
    round_close.note_decided(match.round, match.table_number)
