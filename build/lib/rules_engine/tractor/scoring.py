"""Scoring a tractor match record (SPEC 4.3, 4.5).

Per deal, the defenders' total is their points taken in tricks, plus the bottom times its
multiplier when ``bottom_points`` is given, then the throw penalties (10 per failing card:
added when the dealer side failed, taken off when a defender failed), floored at 0. The
preset's ``tractor_deal_table`` turns the total into who goes up how far: under 120 the
dealer side keeps the deal (0 -> +3, 5-55 -> +2, 60-115 -> +1), from 120 the defenders
take over (+0, +1 from 180, +2 from 240, +3 from 300).

Levels run 2..A and stop at A. A dealer side standing on A that keeps the deal has passed
A and wins the match at once; otherwise the higher level wins at the end, equal levels
draw. The first deal names its dealer side; later deals may leave it out, and one that
contradicts the derived dealer is an error.
"""

from __future__ import annotations

from rules_engine.cards import level_text
from rules_engine.errors import RulesError, sub_field
from rules_engine.final_levels import final_levels_answer, is_final_levels
from rules_engine.i18n import t, term
from rules_engine.presets import (
    SIDES,
    TRACTOR_DEAL_TABLE,
    Preset,
    forfeit_answer,
    match_points,
    other_side,
    resolve_preset,
)
from rules_engine.tractor.throw import penalty_points

ACE = 12
PASSED_A = 13
MAX_POINTS = 300
MAX_MULTIPLIER = 2**20


def _whole(value: object, field: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(
            t("{field} must be {what}, not {value!r}", field=field, what=what, value=value), field
        )
    return value


def _points(value: object, field: str) -> int:
    what = term("a multiple of 5 from 0 to 300")
    points = _whole(value, field, what)
    if points % 5 or not 0 <= points <= MAX_POINTS:
        raise RulesError(
            t("{field} must be {what}, not {points}", field=field, what=what, points=points), field
        )
    return points


def _side(value: object, field: str) -> str:
    if value not in SIDES:
        raise RulesError(
            t("{field} must be EW or NS, not {value!r}", field=field, value=value), field
        )
    return value


def bottom_bonus(deal: dict, where: str) -> int:
    """The bottom's points times the multiplier of the last trick's winning form."""
    if deal.get("bottom_points") is None:
        return 0
    bottom = _points(deal["bottom_points"], sub_field(where, "bottom_points"))
    field = sub_field(where, "bottom_multiplier")
    what = term("2, 4, 8 or another power of two (2 per single, 4 per pair, 8 per triple…)")
    multiplier = _whole(deal.get("bottom_multiplier"), field, what)
    if multiplier < 2 or multiplier > MAX_MULTIPLIER or multiplier & (multiplier - 1):
        raise RulesError(
            t(
                "{field} must be {what}, not {multiplier}",
                field=field,
                what=what,
                multiplier=multiplier,
            ),
            field,
        )
    return bottom * multiplier


def check_three_hundred(deal: dict, points: int, where: str) -> None:
    """The three decks hold 300 points: the points taken in tricks plus the bottom's raw
    points never exceed 300 (the multiplier applies after, SPEC 4.3)."""
    raw = deal.get("bottom_points")
    if raw is None or isinstance(raw, bool) or not isinstance(raw, int):
        return  # no bottom, or a malformed one that bottom_bonus names
    if points + raw > MAX_POINTS:
        field = sub_field(where, "bottom_points")
        raise RulesError(
            t(
                "{where}: defender_points {points} plus bottom_points {bottom} make {total}, but "
                "the three decks hold only 300 points (the bottom multiplier applies after)",
                where=where,
                points=points,
                bottom=raw,
                total=points + raw,
            ),
            field,
        )


def throw_penalty(deal: dict, where: str, dealer: str) -> int:
    """The change failed throws make to the defenders' points (signed)."""
    throws = deal.get("failed_throws") or []
    if not isinstance(throws, list):
        raise RulesError(
            t("{where}.failed_throws must be a list", where=where),
            sub_field(where, "failed_throws"),
        )
    change = 0
    for i, throw in enumerate(throws):
        field = sub_field(sub_field(where, "failed_throws"), i)
        if not isinstance(throw, dict):
            raise RulesError(
                t('{field} must be an object with "side" and "cards"', field=field), field
            )
        side = _side(throw.get("side"), sub_field(field, "side"))
        cards = _whole(throw.get("cards"), sub_field(field, "cards"), "a whole number of cards")
        if cards < 1:
            raise RulesError(
                t("{field}.cards must be 1 or more, not {cards}", field=field, cards=cards), field
            )
        points = penalty_points(cards)
        change += points if side == dealer else -points
    return change


def deal_outcome(total: int, table=TRACTOR_DEAL_TABLE) -> tuple[str, int]:
    """("dealer" | "defenders", levels up) for the defenders' total points."""
    for lowest, role, steps in sorted(table, reverse=True):
        if total >= lowest:
            if role not in ("dealer", "defenders"):
                raise RulesError(
                    t("deal table role must be dealer or defenders, not {role!r}", role=role),
                    "tractor_deal_table",
                )
            return role, steps
    raise RulesError(
        t("the deal table has no row for {total} points", total=total), "tractor_deal_table"
    )


class Match:
    """The levels and dealer of a tractor match as its deals are applied."""

    def __init__(self, preset: Preset) -> None:
        self.table = preset.tractor_deal_table or TRACTOR_DEAL_TABLE
        self.levels = {"EW": 0, "NS": 0}
        self.dealer: str | None = None
        self.passed_a: str | None = None

    def play(self, deal: object, index: int) -> dict:
        where = sub_field("deals", index)
        if self.passed_a:
            raise RulesError(
                t(
                    "{where}: the match was over when {passed_a} passed A",
                    where=where,
                    passed_a=self.passed_a,
                ),
                where,
            )
        if not isinstance(deal, dict):
            raise RulesError(
                t('{where} must be an object with "defender_points"', where=where), where
            )
        dealer = self._dealer(deal.get("dealer"), where)
        defenders = other_side(dealer)
        points = _points(deal.get("defender_points"), sub_field(where, "defender_points"))
        check_three_hundred(deal, points, where)
        bonus = bottom_bonus(deal, where)
        penalty = throw_penalty(deal, where, dealer)
        total = max(0, points + bonus + penalty)
        role, steps = deal_outcome(total, self.table)
        level_played = self.levels[dealer]
        if role == "dealer":
            up_side = dealer
            if level_played == ACE:
                self.passed_a = dealer
                self.levels[dealer] = PASSED_A
        else:
            up_side = self.dealer = defenders
        if not self.passed_a:
            self.levels[up_side] = min(ACE, self.levels[up_side] + steps)
        return {
            "deal": index + 1,
            "dealer": dealer,
            "level": level_text(level_played),
            "defender_points": points,
            "bottom": bonus,
            "throw_penalty": penalty,
            "total_points": total,
            "result": "dealer_keeps" if role == "dealer" else "defenders_take_over",
            "up": {"side": up_side, "levels": steps},
            "levels": {side: level_text(level) for side, level in self.levels.items()},
            "passed_a": self.passed_a,
            "next_dealer": self.dealer,
        }

    def _dealer(self, given: object, where: str) -> str:
        field = sub_field(where, "dealer")
        if self.dealer is None:
            if given is None:
                raise RulesError(
                    t("{field}: the first deal must name its dealer side", field=field), field
                )
            self.dealer = _side(given, field)
        elif given is not None and given != self.dealer:
            raise RulesError(
                t(
                    "{field} is {given!r} but the previous deals make {dealer} the dealer",
                    field=field,
                    given=given,
                    dealer=self.dealer,
                ),
                field,
            )
        return self.dealer

    def result(self) -> dict:
        ew, ns = self.levels["EW"], self.levels["NS"]
        winner = self.passed_a or ("EW" if ew > ns else "NS" if ns > ew else None)
        return {
            "winner": winner,
            "levels": {side: level_text(level) for side, level in self.levels.items()},
            "level_difference": ew - ns,
            "passed_a": self.passed_a,
        }


def score(record: dict) -> dict:
    """Score a tractor match record (SPEC 4.5)."""
    preset = resolve_preset(record, "tractor")
    deals = record.get("deals") or []
    if not isinstance(deals, list):
        raise RulesError(t("deals must be a list of deal records"), "deals")
    if record.get("forfeit") is not None:
        return forfeit_answer(preset, record["forfeit"], deals)
    if is_final_levels(record):
        return final_levels_answer(record, preset, deals)
    if not deals:
        raise RulesError(t("deals is empty: give at least one deal, or a forfeit"), "deals")
    match = Match(preset)
    trace = [match.play(deal, i) for i, deal in enumerate(deals)]
    result = match.result()
    points = match_points(
        preset, result["winner"], result["level_difference"], passed_a=bool(match.passed_a)
    )
    return result | {
        "match_points": points,
        "forfeit": None,
        "preset": preset.name,
        "trace": trace,
    }
