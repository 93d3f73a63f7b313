"""The one reader of the engine's score answer (SPEC 4.5).

A result is stored as the engine answered it (``{"winner": ..., "levels": {...},
"match_points": {...}, ...}``). Standings, public pages, exports, templates and the API read
it through :class:`Outcome`, never by its keys: the shape of the answer is known here only.
:data:`PARTS` names where each value sits in the answer, so that a database can fetch just
those values (without the long trace) and :meth:`Outcome.from_parts` reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from rules_engine.cards import parse_level
from rules_engine.errors import RulesError
from rules_engine.points import PointsError, points_text, to_points

SIDES = ("EW", "NS")

# Accumulated levels (累积小分, guandan national rules): the side's own level index
# (2=0 … A=12), one more for passing A.
PASSED_A_BONUS = 1

# name -> path of keys in the answer, for every value an Outcome reads.
PARTS: dict[str, tuple[str, ...]] = {
    "points_ew": ("match_points", "EW"),
    "points_ns": ("match_points", "NS"),
    "level_difference": ("level_difference",),
    "deals_ew": ("deals_won", "EW"),
    "deals_ns": ("deals_won", "NS"),
    "tricks_ew": ("tricks", "EW"),
    "tricks_ns": ("tricks", "NS"),
    "level_ew": ("levels", "EW"),
    "level_ns": ("levels", "NS"),
    "passed_a": ("passed_a",),
    "forfeit": ("forfeit",),
    "match_loss": ("match_loss",),
    "winner": ("winner",),
    "void": ("void",),
    "games_ew": ("games_won", "EW"),  # best of three: games won
    "games_ns": ("games_won", "NS"),
    "level_points_ew": ("level_points", "EW"),
    "level_points_ns": ("level_points", "NS"),
}


@lru_cache(maxsize=64)
def level_index(text: str | None) -> int:
    """2=0 … A=12; no level, or one that cannot be read, counts 0."""
    try:
        return parse_level(text) if text is not None else 0
    except RulesError:
        return 0


def accumulated_levels(level: str | None, passed_a: bool) -> int:
    """A side's accumulated levels in one match: its level index, +1 for passing A."""
    return level_index(level) + (PASSED_A_BONUS if passed_a else 0)


def _pair(values: Mapping, side: str, default=None):
    return values.get(side, default) if isinstance(values, Mapping) else default


@dataclass(frozen=True)
class Outcome:
    """What a score answer says about a match, from both sides (EW and NS; which is the home
    team's is rules_engine.seating's ``side_of``).

    ``points`` is None when the match does not count (a void, or no answer): it is then
    treated as not played. Counters a game does not keep are 0.
    """

    points_ew: Decimal | None = None  # exact (rules_engine.points): 0.5 is Decimal("0.5")
    points_ns: Decimal | None = None
    winner: str | None = None
    level_ew: str | None = None
    level_ns: str | None = None
    level_difference: int = 0
    passed_a: str | None = None
    deals_ew: int = 0
    deals_ns: int = 0
    tricks_ew: int = 0
    tricks_ns: int = 0
    forfeit: str | None = None
    match_loss: str | None = None  # 判负 by a ruling (scored as a forfeit, but not one: 弃权)
    void: bool = False
    level_points_ew: float = 0  # 级差分 (presets with a level_points_table)
    level_points_ns: float = 0
    games_ew: int = 0  # best of three (三局二胜): games won
    games_ns: int = 0

    @classmethod
    def from_answer(cls, answer: object) -> Outcome:
        """The outcome of a stored answer (None or not an object: a match that does not count)."""
        if not isinstance(answer, Mapping):
            return cls()
        values = {}
        for name, path in PARTS.items():
            value = answer
            for key in path:
                value = value.get(key) if isinstance(value, Mapping) else None
            values[name] = value
        return cls.from_parts(values)

    @classmethod
    def from_parts(cls, parts: Mapping) -> Outcome:
        """The outcome from the values named in :data:`PARTS` (missing ones as None)."""
        ew, ns = _points(parts.get("points_ew")), _points(parts.get("points_ns"))
        counted = ew is not None and ns is not None
        return cls(
            points_ew=ew if counted else None,
            points_ns=ns if counted else None,
            winner=parts.get("winner") if parts.get("winner") in SIDES else None,
            level_ew=parts.get("level_ew"),
            level_ns=parts.get("level_ns"),
            level_difference=parts.get("level_difference") or 0,
            passed_a=parts.get("passed_a") if parts.get("passed_a") in SIDES else None,
            deals_ew=parts.get("deals_ew") or 0,
            deals_ns=parts.get("deals_ns") or 0,
            tricks_ew=parts.get("tricks_ew") or 0,
            tricks_ns=parts.get("tricks_ns") or 0,
            forfeit=parts.get("forfeit") or None,
            match_loss=parts.get("match_loss") or None,
            void=bool(parts.get("void")),
            level_points_ew=parts.get("level_points_ew") or 0,
            level_points_ns=parts.get("level_points_ns") or 0,
            games_ew=parts.get("games_ew") or 0,
            games_ns=parts.get("games_ns") or 0,
        )

    @property
    def counts(self) -> bool:
        """True when the match gives match points (not void, not missing)."""
        return self.points_ew is not None

    @property
    def has_levels(self) -> bool:
        return self.level_ew is not None and self.level_ns is not None

    @property
    def points_text(self) -> str:
        """``"17 : 0"``; empty when the match does not count."""
        if not self.counts:
            return ""
        return f"{points_text(self.points_ew)} : {points_text(self.points_ns)}"

    @property
    def has_games(self) -> bool:
        """A best-of-three result (games won are counted)."""
        return bool(self.games_ew or self.games_ns)

    @property
    def has_level_points(self) -> bool:
        return bool(self.level_points_ew or self.level_points_ns)

    def points(self, side: str) -> Decimal | None:
        return self.points_ew if side == "EW" else self.points_ns

    def level(self, side: str) -> str | None:
        return self.level_ew if side == "EW" else self.level_ns

    def deals(self, side: str) -> int:
        return self.deals_ew if side == "EW" else self.deals_ns

    def tricks(self, side: str) -> int:
        return self.tricks_ew if side == "EW" else self.tricks_ns

    def games(self, side: str) -> int:
        return self.games_ew if side == "EW" else self.games_ns

    def level_points(self, side: str) -> float:
        return self.level_points_ew if side == "EW" else self.level_points_ns

    def difference_for(self, side: str) -> int:
        """The level difference in ``side``'s favour (the answer's is East–West's)."""
        return self.level_difference if side == "EW" else -self.level_difference

    def result_for(self, side: str) -> str:
        """``"win"``, ``"loss"`` or ``"draw"`` for ``side``; ``""`` when the match does not count."""
        if not self.counts:
            return ""
        if self.winner is None:
            return "draw"
        return "win" if self.winner == side else "loss"

    def accumulated_levels(self, side: str) -> int:
        """The side's accumulated levels (累积小分) in this match."""
        return accumulated_levels(self.level(side), self.passed_a == side)


def _points(value: object) -> Decimal | None:
    """Stored match points (a JSON number, or the text a database gives for it) as exact
    points; None when absent or not a number."""
    if value is None:
        return None
    try:
        return to_points(value)
    except PointsError:  # more decimals than an edition allows: still its exact decimal
        try:
            number = Decimal(repr(value) if isinstance(value, float) else str(value))
        except ArithmeticError:
            return None
        return number if number.is_finite() else None
