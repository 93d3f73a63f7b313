"""The match format of a match (SPEC 2): when the rules engine says the match is over.

A match plays by its stage's format (``Stage.match_format``; a knockout stage's always asks for
a winner), else by its event's setting ``match_format`` (a field of the engine's Preset, so the
one event-settings schema checks it); without either, by the game's own end (guandan: a pass of
A, or the deal in play at time). The format goes into the stored record (``"format"``,
SPEC 4.5), so the record says by itself how it was scored, and the engine refuses a deal after
the end naming the deal and why (:mod:`rules_engine.match_format`).
"""

from __future__ import annotations

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from rules_engine.errors import RulesError
from rules_engine.format_fields import parse_format
from rules_engine.i18n import localize
from rules_engine.match_format import (
    END_REASONS,
    LEVEL_GAMES,
    NEXT_STEPS,
    end_reason,
    format_text,
    not_over,
)
from rules_engine.presets import MATCH_FORMAT_GAMES
from tournaments.errors import ServiceError


class FormatError(ServiceError):
    """A record whose format is not the match's."""


def format_of(match) -> dict | None:
    """The match's format with its defaults, or None (the game's own end): its stage's
    format (a knockout stage's always asks for a winner), else the event's."""
    return stage_format(match) or event_format(match.round.event)


def stage_format(match) -> dict | None:
    """The engine format the match is scored by through its stage (None: the event's usual
    scoring)."""
    if match.round.stage_id is None:
        return None  # no query for an event without stages
    stage = match.round.stage
    if match.round.event.game not in LEVEL_GAMES:
        return None  # the engine's formats are for the level games
    return stage.engine_format()


def event_format(event) -> dict | None:
    """The event's match format (its ``match_format`` setting), or None."""
    if event.game not in MATCH_FORMAT_GAMES:
        return None
    return event.get_preset().match_format


TIMED_ENDS = ("time", "time_or_deals")


def clock_minutes(event, stage=None) -> int:
    """The round clock (SPEC 2): a match format that ends by time (计时制, 计时计副制) sets it
    (60 minutes by default): the stage's format, else the event's; otherwise the event's
    round length."""
    fmt = None
    if stage is not None and event.game in MATCH_FORMAT_GAMES:
        fmt = stage.engine_format()
    fmt = fmt or event_format(event)
    if fmt is not None and fmt["end"] in TIMED_ENDS:
        return fmt["minutes"]
    return event.round_minutes


def with_format(match, record: dict) -> dict:
    """``record`` with the match's format; a record naming another format is refused."""
    fmt = format_of(match)
    if "format" in record and record["format"] is not None:
        try:
            given = parse_format(record["format"])
        except RulesError as err:
            raise FormatError.from_rules(err, "record") from None
        if given != fmt:
            raise FormatError(
                _("This match is played as: %(format)s; the record may not set another format."),
                "record.format",
                format=text(fmt) or _("the game's own end"),
            )
    stored = {key: value for key, value in record.items() if key != "format"}
    if fmt is not None:
        stored["format"] = fmt
    return stored


def text(fmt: dict | None) -> str:
    """The format in words, in the active language ("" for none)."""
    words = format_text(fmt)
    return localize(words, get_language()) if words else ""


def over_text(answer: dict) -> str:
    """Why the match of ``answer`` is over, in the active language ("" while it is not)."""
    reason = end_reason(answer) if answer.get("over", bool(answer.get("passed_a"))) else None
    return localize(reason, get_language()) if reason else ""


def not_whole(record: dict | None, outcome: dict | None) -> str:
    """Why a stored result is not a whole match yet (the engine's ``over`` is false: e.g. an
    idiom-chain record of 2 deals of 3), in the active language; "" when it is one."""
    why = not_over(record or {}, outcome or {})
    return localize(why, get_language(), words=True) if why else ""


def next_steps() -> dict[str, str]:
    """Each ``next`` of an engine answer in words, in the active language (for the table
    page: an idiom-chain match short of its deals or tied is "not over: one more deal")."""
    return {step: localize(words, get_language()) for step, words in NEXT_STEPS.items()}


def end_reasons() -> dict[str, str]:
    """Each ``end`` of an engine answer in words, in the active language (for the table page)."""
    reasons = {end: localize(words, get_language()) for end, words in END_REASONS.items()}
    for end in ("games", "forfeit"):
        reasons[end] = localize(end_reason({"end": end}), get_language())
    return reasons
