"""A simulated event with random results, for property tests and benchmarks.

It keeps exactly the state the pairing needs between rounds, and can be used to
rehearse an event's pairing before it starts.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .core import AWAY, HOME, PairingResult, PairingTeam

POINTS = {"W": 2, "D": 1, "L": 0, "B": 2}


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
    """Teams 1..size, results drawn from `rng`: win 2, draw 1, loss 0, bye 2."""

    def __init__(self, size: int, rng: random.Random, units: int | None = None):
        self.rng = rng
        self.records = {
            team_id: TeamRecord(
                team_id, unit=None if units is None else f"unit-{rng.randrange(units)}"
            )
            for team_id in range(1, size + 1)
        }

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
            for record, outcome, side, opponent in (
                (home, home_result, HOME, away.id),
                (away, away_result, AWAY, home.id),
            ):
                record.score += POINTS[outcome]
                record.results.append((opponent, side, outcome))
        if result.bye is not None:
            record = self.records[result.bye]
            record.byes += 1
            record.score += POINTS["B"]
            record.results.append((None, None, "B"))
