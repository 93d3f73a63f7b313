"""A simulated event with random results, for property tests and benchmarks.

It keeps exactly the state the pairing needs between rounds, and can be used to
rehearse an event's pairing before it starts.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rules_engine import seating
from rules_engine.presets import PRESETS, bye_points, match_points

from .core import AWAY, HOME, PairingResult, PairingTeam

# One engine preset for each scale of match points (the points are the engine's, never copied
# here): win 2, draw 1, loss 0; win 3, draw 2, loss 1; the 20-point scale by level difference.
SCALES = ("guandan-national", "guandan-national-2017", "guandan-suzhou-2016")


@dataclass
class TeamRecord:
    id: int
    unit: str | None = None
    score: int = 0
    opponents: set[int] = field(default_factory=set)
    sides: list[str] = field(default_factory=list)
    byes: int = 0
    active: bool = True
    # (opponent or None for a bye, "H"/"A" or None, "W"/"D"/"L"/"B") per round played
    results: list[tuple[int | None, str | None, str]] = field(default_factory=list)


class SimulatedEvent:
    """Teams 1..size, results drawn from `rng`.

    `scale` is a preset of SCALES, whose match points the engine gives (rules_engine.presets
    .match_points); on a preset scored by level difference a win is by d levels, d from 1
    to 10; a bye scores the preset's forfeit win.
    """

    def __init__(
        self, size: int, rng: random.Random, units: int | None = None, scale: str = SCALES[0]
    ):
        self.rng = rng
        self.units = units
        self.preset = PRESETS[scale]
        self.scale = scale
        self.records = {}
        for _ in range(size):
            self.enter()

    def enter(self, score: int = 0) -> int:
        """A team joins (a late entry joins with `score` points); returns its id."""
        team_id = len(self.records) + 1
        unit = None if self.units is None else f"unit-{self.rng.randrange(self.units)}"
        self.records[team_id] = TeamRecord(team_id, unit=unit, score=score)
        return team_id

    def teams(self) -> list[PairingTeam]:
        ordered = sorted(self.records.values(), key=lambda record: (-record.score, record.id))
        return [
            PairingTeam(
                id=record.id,
                score=record.score,
                rank=rank,
                unit=record.unit,
                opponents=frozenset(record.opponents),
                home_count=record.sides.count(HOME),
                away_count=record.sides.count(AWAY),
                recent_sides=tuple(record.sides),
                had_bye=record.byes > 0,
                active=record.active,
            )
            for rank, record in enumerate(ordered)
        ]

    def play(self, result: PairingResult) -> None:
        """Record the round's tables and random results."""
        for pairing in result.pairings:
            home, away = self.records[pairing.home], self.records[pairing.away]
            home.opponents.add(away.id)
            away.opponents.add(home.id)
            home.sides.append(HOME)
            away.sides.append(AWAY)
            roll = self.rng.random()
            home_result, away_result = (
                ("W", "L") if roll < 0.45 else ("L", "W") if roll < 0.9 else ("D", "D")
            )
            by_levels = self.preset.level_difference_table is not None
            margin = self.rng.randint(1, 10) if by_levels else 0
            winner = {"W": seating.HOME, "L": seating.AWAY, "D": None}[home_result]
            points = match_points(self.preset, winner, margin)
            for record, outcome, side, opponent, own in (
                (home, home_result, HOME, away.id, points[seating.HOME]),
                (away, away_result, AWAY, home.id, points[seating.AWAY]),
            ):
                record.score += own
                record.results.append((opponent, side, outcome))
        if result.bye is not None:
            record = self.records[result.bye]
            record.byes += 1
            record.score += float(bye_points(self.preset))
            record.results.append((None, None, "B"))
