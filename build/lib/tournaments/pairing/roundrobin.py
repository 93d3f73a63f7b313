"""Round robin (循环赛) by Berger tables, as FIDE publishes them (pure: no Django).

Input: the entrants in their drawing order (any hashable ids; entrant k takes Berger
number k + 1). Output: one `RoundRobinRound` per round, each with its tables (home
first: home sits East-West) and the entrant that has the bye.

    rounds = berger_rounds(["A", "B", "C", "D", "E", "F", "G"])
    rounds[0].tables  # [("A", "G")...]; rounds[0].bye == the entrant paired with the dummy

An odd field gets a dummy last number: whoever meets it has the bye that round, so
n entrants play n - 1 rounds (even n) or n rounds (odd n), every pair once, one bye
a round for an odd field. `cycles=2` plays the tables twice, sides swapped.

Berger numbering (n even, m = n - 1): in round r (1-based), table 1 is entrant n
against entrant ((r - 1) * n/2) mod m + 1, entrant n at home in even rounds; table
t >= 2 has at home ((r - 1) * n/2 + t - 1) mod m + 1, and away the entrant whose
number adds up with it to r + 1 modulo m (m for 0).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field


class RoundRobinError(ValueError):
    """Bad input for a round robin; the message names what is wrong."""


@dataclass(frozen=True)
class RoundRobinRound:
    number: int  # 1-based
    tables: list[tuple[Hashable, Hashable]] = field(default_factory=list)  # (home, away)
    bye: Hashable | None = None


def berger_numbers(size: int) -> list[list[tuple[int, int]]]:
    """The Berger table for `size` (even) numbers: per round, (home, away) numbers."""
    if size < 2 or size % 2:
        raise RoundRobinError(f"Berger tables need an even number of places, got {size}")
    half, m = size // 2, size - 1
    rounds = []
    for r in range(1, size):
        base = (r - 1) * half
        first = base % m + 1
        tables = [(size, first) if r % 2 == 0 else (first, size)]
        for t in range(2, half + 1):
            home = (base + t - 1) % m + 1
            away = (r + 1 - home) % m or m
            tables.append((home, away))
        rounds.append(tables)
    return rounds


def berger_rounds(entrants: Sequence[Hashable], cycles: int = 1) -> list[RoundRobinRound]:
    """Every round of a round robin among `entrants` (Berger tables, FIDE order)."""
    entrants = list(entrants)
    if len(entrants) < 2:
        raise RoundRobinError(f"a round robin needs at least two entrants, got {len(entrants)}")
    if len(set(entrants)) != len(entrants):
        raise RoundRobinError("an entrant is listed twice")
    if cycles not in (1, 2):
        raise RoundRobinError(f"cycles must be 1 or 2, got {cycles!r}")
    size = len(entrants) + len(entrants) % 2
    dummy = len(entrants) + 1 if len(entrants) % 2 else None  # its Berger number
    single = []
    for tables in berger_numbers(size):
        played, bye = [], None
        for home, away in tables:
            if dummy in (home, away):
                bye = entrants[(away if home == dummy else home) - 1]
            else:
                played.append((entrants[home - 1], entrants[away - 1]))
        single.append((played, bye))
    rounds = [
        RoundRobinRound(number, tables, bye) for number, (tables, bye) in enumerate(single, start=1)
    ]
    if cycles == 2:
        rounds += [
            RoundRobinRound(len(single) + number, [(b, a) for a, b in tables], bye)
            for number, (tables, bye) in enumerate(single, start=1)
        ]
    return rounds
