"""Guandan deal and match scoring (SPEC 4.2, 4.5).

- A deal goes to the side of the first player out (上游): +3 when the partner is second
  (双上), +2 when third, +1 when last; levels never pass A by going up (A必打).
- The level played is that of the side that won the last deal (first deal: 2).
- Passing A: the side on A playing its own deal passes when it has 上游 and the partner is
  not last; any other outcome of its own A deal is a failed attempt; the preset's
  ``fail_a_limit``-th failed attempt sends it back to 2 (None: never).
- The match ends when a side passes A, or at time: higher level wins, equal is a draw.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules_engine.cards import PASSED_A, level_text
from rules_engine.errors import RulesError, sub_field
from rules_engine.final_levels import final_levels_answer, is_final_levels
from rules_engine.guandan.seats import PARTNER, SEATS, SIDE_OF, parse_seats
from rules_engine.i18n import t
from rules_engine.presets import (
    Preset,
    forfeit_answer,
    match_points,
    resolve_preset,
)

ACE = 12
UP_BY_PARTNER_PLACE = {2: 3, 3: 2, 4: 1}  # partner's finishing place -> levels gained


@dataclass(frozen=True)
class DealResult:
    """What a finish order decides: the winning side and how far it goes up."""

    finish: tuple[str, ...]
    winner: str
    up: int
    partner_place: int


def deal_result(finish: object, field: str = "finish") -> DealResult:
    """Read a finish order: 2 seats (双上), 3 or 4 seats; the last may be left off."""
    seats = parse_seats(finish, field)
    if len(seats) < 2:
        raise RulesError(
            t("{field} must name at least the first two seats out", field=field), field
        )
    if len(seats) == 3:
        seats.append(next(s for s in SEATS if s not in seats))
    first = seats[0]
    partner = PARTNER[first]
    if partner not in seats:
        raise RulesError(
            t(
                "{field}: {seats} went out first but the finish does not say where {partner} (the partner) finished; name at least three seats",
                field=field,
                seats=seats[0],
                partner=partner,
            ),
            field,
        )
    place = seats.index(partner) + 1
    return DealResult(tuple(seats), SIDE_OF[first], UP_BY_PARTNER_PLACE[place], place)


@dataclass
class MatchState:
    """Levels (0 = 2 … 12 = A, 13 = passed A), who won the last deal and failed A attempts."""

    preset: Preset
    levels: dict[str, int] = field(default_factory=lambda: {"EW": 0, "NS": 0})
    last_winner: str | None = None
    failed_a: dict[str, int] = field(default_factory=lambda: {"EW": 0, "NS": 0})
    passed_a: str | None = None
    deals_won: dict[str, int] = field(default_factory=lambda: {"EW": 0, "NS": 0})

    def level_played(self) -> int:
        return self.levels[self.last_winner] if self.last_winner else 0

    def play(self, result: DealResult) -> dict:
        """Apply one deal and return its trace entry."""
        owner = self.last_winner
        level = self.level_played()
        winner = result.winner
        events = []
        self.deals_won[winner] += 1
        own_a_deal = owner is not None and self.levels[owner] == ACE
        if own_a_deal and owner == winner and result.partner_place < 4:
            self.levels[winner] = PASSED_A
            self.passed_a = winner
            events.append("passed_a")
        else:
            self.levels[winner] = min(ACE, self.levels[winner] + result.up)
            if own_a_deal:
                events += self._fail_a(owner)
        self.last_winner = winner
        return {
            "level_played": level_text(level),
            "played_by": owner,
            "finish": list(result.finish),
            "winner": winner,
            "up": result.up,
            "levels_after": self.level_texts(),
            "failed_a": dict(self.failed_a),
            "events": events,
        }

    def _fail_a(self, side: str) -> list[str]:
        self.failed_a[side] += 1
        limit = self.preset.fail_a_limit
        if limit is not None and self.failed_a[side] >= limit:
            self.levels[side] = 0
            self.failed_a[side] = 0
            return [f"failed_a:{side}", f"dropped_back:{side}"]
        return [f"failed_a:{side}"]

    def level_texts(self) -> dict[str, str]:
        return {side: level_text(level) for side, level in self.levels.items()}

    def outcome(self) -> str | None:
        if self.passed_a:
            return self.passed_a
        if self.levels["EW"] == self.levels["NS"]:
            return None
        return "EW" if self.levels["EW"] > self.levels["NS"] else "NS"


def score_match(record: dict, preset: Preset | str | None = None) -> dict:
    """Score a guandan match record (SPEC 4.5) with its preset (argument, record or default)."""
    if not isinstance(record, dict):
        raise RulesError(t("a match record must be a JSON object"))
    preset = resolve_preset(record, "guandan", preset)
    deals = record.get("deals") or []
    if not isinstance(deals, list):
        raise RulesError(t("deals must be a list of deals"), "deals")
    forfeit = record.get("forfeit")
    if forfeit is not None:
        return forfeit_answer(preset, forfeit, deals, deals_won={"EW": 0, "NS": 0})
    if is_final_levels(record):
        return final_levels_answer(record, preset, deals)
    state = MatchState(preset)
    trace = []
    for i, deal in enumerate(deals):
        where = sub_field("deals", i)
        if state.passed_a:
            raise RulesError(
                t(
                    "{where}: the match was already over when {passed_a} passed A in deal {count}",
                    where=where,
                    passed_a=state.passed_a,
                    count=len(trace),
                ),
                where,
            )
        if not isinstance(deal, dict) or "finish" not in deal:
            raise RulesError(
                t('{where} must be an object with a "finish" list', where=where), where
            )
        entry = state.play(deal_result(deal["finish"], sub_field(where, "finish")))
        trace.append({"deal": i + 1} | entry)
    winner = state.outcome()
    difference = state.levels["EW"] - state.levels["NS"]
    return {
        "winner": winner,
        "levels": state.level_texts(),
        "level_difference": difference,
        "passed_a": state.passed_a,
        "deals_won": dict(state.deals_won),
        "match_points": match_points(preset, winner, difference, passed_a=bool(state.passed_a)),
        "forfeit": None,
        "preset": preset.name,
        "trace": trace,
    }
