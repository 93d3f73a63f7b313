"""Unit standings (单位/团体, SPEC §2), pure: no Django.

A unit ranks by the sum of its best N teams' match points (N is the preset's
``unit_best_teams``, default 2), then by the sums of those teams' summable tiebreak scores
in the preset's standings order (level difference, net or accumulated levels, deals and
tricks differences; head-to-head, draw lots and the latest round do not add up and are
skipped). A unit's best teams are its teams best placed in the team standings. Units equal
on every sum share a rank. The idiom-chain ruling "the hinting unit drops one place in the
final ranking" moves a unit down (``moved_down``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from rules_engine.points import normal
from rules_engine.points import to_points as exact

SUMMABLE = (
    "level_diff",
    "net_levels",
    "accumulated_levels",
    "deals_won_diff",
    "tricks_diff",
    "wins",
    "contribution",
)


@dataclass(frozen=True)
class TeamPlace:
    """One team of the team standings as the unit standings read it."""

    team: int
    unit: str  # "" for a team without a unit (not ranked among units)
    rank: int
    points: float
    metrics: Mapping[str, float] = field(default_factory=dict)
    active: bool = True


@dataclass(frozen=True)
class UnitRow:
    unit: str
    rank: int
    points: float
    metrics: dict[str, float]
    teams: tuple[int, ...]  # the teams that count, best first
    shared: bool = False
    moved_down: int = 0


def summable(standings_order: Iterable[str]) -> list[str]:
    """The tiebreaks of ``standings_order`` that add up over a unit's teams, in order."""
    return [key for key in standings_order if key in SUMMABLE]


def unit_standings(
    places: Iterable[TeamPlace],
    standings_order: Iterable[str],
    best_teams: int = 2,
    moved_down: Mapping[str, int] | None = None,
) -> list[UnitRow]:
    """The unit ranking over the team standings ``places``."""
    if not isinstance(best_teams, int) or best_teams < 1:
        raise ValueError("best_teams must be a whole number of teams, 1 or more")
    keys = summable(standings_order)
    by_unit: dict[str, list[TeamPlace]] = {}
    for place in places:
        if place.unit and place.active:
            by_unit.setdefault(place.unit, []).append(place)
    rows = []
    for unit, teams in by_unit.items():
        best = sorted(teams, key=lambda place: (place.rank, place.team))[:best_teams]
        rows.append(
            UnitRow(
                unit=unit,
                rank=0,
                points=normal(sum((exact(place.points) for place in best), Decimal(0))),
                metrics={key: sum(place.metrics.get(key, 0) for place in best) for key in keys},
                teams=tuple(place.team for place in best),
            )
        )

    def score(row: UnitRow) -> tuple:
        return (row.points, *(row.metrics[key] for key in keys))

    rows.sort(key=lambda row: (tuple(-value for value in score(row)), row.unit))
    ranked: list[UnitRow] = []
    for index, row in enumerate(rows):
        tied_before = index and score(rows[index - 1]) == score(row)
        tied_after = index + 1 < len(rows) and score(rows[index + 1]) == score(row)
        rank = ranked[-1].rank if tied_before else index + 1
        ranked.append(
            UnitRow(
                row.unit, rank, row.points, row.metrics, row.teams, bool(tied_before or tied_after)
            )
        )
    return move_down(ranked, moved_down or {})


def move_down(rows: list[UnitRow], moves: Mapping[str, int]) -> list[UnitRow]:
    """Move units down by their places; every unit then has a place of its own around the
    moved one, numbered again (units still tied keep sharing)."""
    moves = {unit: places for unit, places in moves.items() if places}
    if not moves:
        return rows
    order = [row.unit for row in rows]
    unknown = [unit for unit in moves if unit not in order]
    if unknown:
        raise ValueError(f"ranking adjustment for unknown unit {unknown[0]!r}")
    keyed = [(row, (row.rank, row.shared)) for row in rows]
    for unit in sorted(moves, key=order.index):
        index = next(i for i, (row, _) in enumerate(keyed) if row.unit == unit)
        row, _ = keyed.pop(index)
        keyed.insert(min(index + moves[unit], len(keyed)), (row, ("moved", unit)))
    result, position, previous = [], 0, None
    for index, (row, key) in enumerate(keyed):
        if key != previous or key[0] == "moved":
            position = index + 1
        shared = any(
            other_key == key and key[0] != "moved"
            for j, (_, other_key) in enumerate(keyed)
            if j != index
        )
        result.append(
            UnitRow(
                row.unit,
                position,
                row.points,
                row.metrics,
                row.teams,
                shared,
                moves.get(row.unit, 0),
            )
        )
        previous = key
    return result
