"""Effects of arbitration rulings on a match result (SPEC 5), applied by the engine.

A ruling that changes a result is stored in the match record, so that scoring the record
gives the adjusted answer and removing the entry gives back the original one:

    {"game": "guandan", "deals": [...],
     "adjustments": [{"type": "level_deduction", "side": "EW", "levels": 1, "ruling": 12}]}

``side`` is always the offending side. Types:

* ``level_deduction`` — the side goes down ``levels`` (not below 2; a side that had passed
  A no longer has); guandan and tractor;
* ``opponent_level_up`` — the opponents go up ``levels`` (never past A); guandan and tractor;
* ``match_loss`` — the match scores as a forfeit by the side (判负); every game;
* ``trick_to_opponents`` — one trick of deal ``deal`` goes to the opponents; chengyu;
* ``round_lost`` — the deal ``deal`` (or, without it, the round) is lost 4:9; chengyu;
* ``wrong_tribute`` — a wrong tribute found after play began (national text): the
  offending ``seat`` is scored last (下游) in deal ``deal``, and the match is scored again
  from the changed finish; guandan.

Winner, level difference and match points are worked out again with the record's preset.
:func:`score` is the entry point; the answer lists the adjustments applied and, when they
changed it, ``unadjusted``: the winner and match points before them.

In code "adjustments" are these, a record's; a team moved down the standings is a ranking
adjustment (RankingAdjustment, tournaments/services/ranking_adjustments.py).
"""

from __future__ import annotations

import copy

from rules_engine import match_format
from rules_engine.cards import PASSED_A, level_text, parse_level
from rules_engine.errors import RulesError, sub_field
from rules_engine.games import score_plain
from rules_engine.i18n import t
from rules_engine.presets import (
    SIDES,
    forfeit_level_difference,
    match_points,
    other_side,
    resolve_preset,
)

SEAT_SIDES = {"E": "EW", "W": "EW", "S": "NS", "N": "NS"}
PLAY_ORDER = ("E", "N", "W", "S")

ACE = 12
LEVEL_TYPES = ("level_deduction", "opponent_level_up")
TRICK_TYPES = ("trick_to_opponents", "round_lost")
WRONG_TRIBUTE = "wrong_tribute"
TYPES = (*LEVEL_TYPES, "match_loss", *TRICK_TYPES, WRONG_TRIBUTE)
GAME_TYPES = {
    "guandan": (*LEVEL_TYPES, "match_loss", WRONG_TRIBUTE),
    "tractor": (*LEVEL_TYPES, "match_loss"),
    "chengyu": ("match_loss", *TRICK_TYPES),
}


def parse_adjustment(value: object, game: str, field: str = "adjustment") -> dict:
    """Check one adjustment for ``game``; RulesError naming the bad field."""
    if not isinstance(value, dict):
        raise RulesError(t('{field} must be an object with "type" and "side"', field=field), field)
    allowed = GAME_TYPES.get(game)
    if allowed is None:
        raise RulesError(t("unknown game {game!r}", game=game), "game")
    kind = value.get("type")
    if kind not in allowed:
        raise RulesError(
            t(
                "{field}.type must be one of {allowed} in {game}, not {kind!r}",
                field=field,
                allowed=", ".join(allowed),
                game=game,
                kind=kind,
            ),
            sub_field(field, "type"),
        )
    if value.get("side") not in SIDES:
        raise RulesError(
            t("{field}.side must be EW or NS (the offending side)", field=field),
            sub_field(field, "side"),
        )
    if kind in LEVEL_TYPES:
        check_levels(value.get("levels", 1), sub_field(field, "levels"))
    if kind == WRONG_TRIBUTE:
        seat = value.get("seat")
        if seat not in SEAT_SIDES or SEAT_SIDES[seat] != value["side"]:
            raise RulesError(
                t("{field}.seat must be a seat E, S, W or N of the offending side", field=field),
                sub_field(field, "seat"),
            )
        deal = value.get("deal")
        if isinstance(deal, bool) or not isinstance(deal, int) or deal < 1:
            raise RulesError(
                t("{field}.deal must be the number of the deal (1 for the first)", field=field),
                sub_field(field, "deal"),
            )
    return dict(value)


def check_levels(levels: object, field: str = "levels") -> int:
    """How many levels a ruling moves a side: a whole number from 1 to 12 (2 up to A)."""
    if isinstance(levels, bool) or not isinstance(levels, int) or not 1 <= levels <= ACE:
        raise RulesError(
            t("{field} must be a whole number of levels from 1 to 12", field=field), field
        )
    return levels


def scored_last(record: dict, adjustments: list[dict]) -> dict:
    """The record with each wrong-tribute offender moved to last place in its deal."""
    deals = copy.deepcopy(record.get("deals") or [])
    for adjustment in adjustments:
        number, seat = adjustment["deal"], adjustment["seat"]
        if number > len(deals) or not isinstance(deals[number - 1], dict):
            raise RulesError(
                t(
                    "wrong_tribute: the record has no deal {number} (it holds {count})",
                    number=number,
                    count=len(deals),
                ),
                "adjustments",
            )
        deal = deals[number - 1]
        finish = [s for s in deal.get("finish") or [] if s in SEAT_SIDES]
        finish += [s for s in PLAY_ORDER if s not in finish]  # the unlisted seats, in turn
        deal["finish"] = [s for s in finish if s != seat] + [seat]
    return record | {"deals": deals}


def check_deal(adjustment: dict, record: dict, field: str) -> None:
    """An adjustment naming a deal names one the record holds (1 for the first): a ruling
    on deal 9 of a 3-deal record is refused, never applied as if it named none. A record of
    games (best of three) or of final levels is not counted by deals here."""
    if "deal" not in adjustment or adjustment["deal"] is None:
        return
    where = sub_field(field, "deal")
    number = adjustment["deal"]
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise RulesError(
            t("{field}.deal must be the number of the deal (1 for the first)", field=field), where
        )
    deals = record.get("deals")
    if isinstance(deals, list) and number > len(deals):
        raise RulesError(
            t(
                "{field}.deal: the record has no deal {number} (it holds {count})",
                field=field,
                number=number,
                count=len(deals),
            ),
            where,
        )


def parse_adjustments(record: dict) -> list[dict]:
    value = record.get("adjustments") or []
    if not isinstance(value, list):
        raise RulesError(t("adjustments must be a list"), "adjustments")
    game = record.get("game")
    found = []
    for i, item in enumerate(value):
        field = sub_field("adjustments", i)
        adjustment = parse_adjustment(item, game, field)
        check_deal(adjustment, record, field)
        found.append(adjustment)
    return found


def add_adjustment(record: dict, adjustment: dict) -> dict:
    """A copy of ``record`` with ``adjustment`` added (checked against the record's game)."""
    if not isinstance(record, dict):
        raise RulesError(t("a match record must be a JSON object"))
    new = copy.deepcopy(record)
    new.setdefault("adjustments", [])
    new["adjustments"] = [
        *parse_adjustments(new),
        parse_adjustment(adjustment, record.get("game"), "adjustment"),
    ]
    check_deal(new["adjustments"][-1], new, "adjustment")
    return new


def remove_adjustments(record: dict, ruling: object) -> dict:
    """A copy of ``record`` without the adjustments of ``ruling``."""
    new = copy.deepcopy(record)
    kept = [a for a in new.get("adjustments") or [] if a.get("ruling") != ruling]
    if kept:
        new["adjustments"] = kept
    else:
        new.pop("adjustments", None)
    return new


def score(record: object) -> dict:
    """Score a match record with its adjustments (SPEC 4.5 answer + ``adjustments``)."""
    if not isinstance(record, dict):
        raise RulesError(t("a match record must be a JSON object"))
    adjustments = parse_adjustments(record)
    base_record = {k: v for k, v in record.items() if k != "adjustments"}
    answer = score_plain(base_record)
    if not adjustments:
        return answer
    unadjusted = {"winner": answer["winner"], "match_points": answer["match_points"]}
    wrong_tributes = [a for a in adjustments if a["type"] == WRONG_TRIBUTE]
    if wrong_tributes:
        base_record = scored_last(base_record, wrong_tributes)
        answer = score_plain(base_record)
    tricks = [a for a in adjustments if a["type"] in TRICK_TYPES]
    if tricks:
        answer = score_plain(
            base_record | {"penalties": [*(record.get("penalties") or []), *tricks]}
        )
    losers = sorted({a["side"] for a in adjustments if a["type"] == "match_loss"})
    if losers:
        if not wrong_tributes and not tricks and base_record.get("format") is not None:
            answer = match_format.score(base_record)  # what was earned, as the engine scores it
        answer = match_loss(record, base_record, answer, losers)
    else:
        levels = [a for a in adjustments if a["type"] in LEVEL_TYPES]
        if levels:
            answer = apply_levels(answer, levels, resolve_preset(record, record["game"]))
    answer["adjustments"] = adjustments
    answer["unadjusted"] = unadjusted
    return answer


def match_loss(record: dict, base_record: dict, earned: dict, losers: list[str]) -> dict:
    """The answer of a match lost by ruling (判负, SPEC §5): the side not penalised keeps the
    better of what it earned at the table (``earned``) and the forfeit score; the penalised
    side gets the forfeit's losing score. Both sides penalised: the no-show points."""
    forfeit = {k: base_record.get(k) for k in ("game", "preset", "settings") if k in record}
    absent = losers[0] if len(losers) == 1 else "both"
    forfeited = score_plain(forfeit | {"deals": [], "forfeit": absent})
    forfeited = match_format.with_level_points(forfeit, forfeited)
    earned = match_format.with_level_points(base_record, earned)
    if absent != "both" and keeps_earned(earned, forfeited, other_side(absent), record):
        loser_points = forfeited["match_points"][absent]
        kept = earned | {
            "winner": other_side(absent),
            "match_points": earned["match_points"] | {absent: loser_points},
            "match_loss": absent,
            "match_loss_score": "earned",
        }
        if "level_points" in forfeited and "level_points" in earned:
            kept["level_points"] = earned["level_points"] | {
                absent: forfeited["level_points"][absent]
            }
        return kept
    return forfeited | {
        "trace": earned.get("trace", []),
        "match_loss": absent,
        "match_loss_score": "forfeit",
    }


def keeps_earned(earned: dict, forfeited: dict, side: str, record: dict) -> bool:
    """Whether what ``side`` (not penalised) earned at the table is at least as good as the
    forfeit win: it won, and its match points, then its 级差分, then its level difference
    (a forfeit's counts as :func:`rules_engine.presets.forfeit_level_difference`) are not
    below the forfeit's. At equal figures the earned result stands: its deals and tricks
    are real, a forfeit's are none."""
    if earned.get("winner") != side or not isinstance(earned.get("match_points"), dict):
        return False
    preset = resolve_preset(record, record["game"])

    def figures(answer, difference):
        level = (answer.get("level_points") or {}).get(side, 0)
        return (answer["match_points"].get(side, 0), level, difference)

    played = abs(earned.get("level_difference") or 0)
    return figures(earned, played) >= figures(forfeited, forfeit_level_difference(preset))


def apply_levels(answer: dict, adjustments: list[dict], preset) -> dict:
    """The answer with level deductions and opponents' level-ups applied in order."""
    if not answer.get("levels"):
        raise RulesError(t("the match has no levels to change (a forfeit?)"), "adjustments")
    passed = answer.get("passed_a")
    levels = {
        side: PASSED_A if passed == side else parse_level(answer["levels"][side]) for side in SIDES
    }
    for adjustment in adjustments:
        side, steps = adjustment["side"], adjustment.get("levels", 1)
        if adjustment["type"] == "level_deduction":
            levels[side] = max(0, levels[side] - steps)
        else:
            other = other_side(side)
            if levels[other] < PASSED_A:
                levels[other] = min(ACE, levels[other] + steps)
    passed = next((side for side in SIDES if levels[side] == PASSED_A), None)
    difference = levels["EW"] - levels["NS"]
    winner = passed or ("EW" if difference > 0 else "NS" if difference < 0 else None)
    return answer | {
        "winner": winner,
        "levels": {side: level_text(level) for side, level in levels.items()},
        "level_difference": difference,
        "passed_a": passed,
        "match_points": match_points(preset, winner, difference, passed_a=bool(passed)),
    }
