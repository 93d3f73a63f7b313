"""Round 1: a reproducible draw (抽签) from a recorded random seed (SPEC section 2).

Two methods (the preset setting ``round_one_method``): ``random`` — every team drawn from
the seed; ``seed`` — teams with seed numbers are kept apart and spread over the tables, the
top half of the field meeting the bottom half (seed 1 at table 1), the unseeded teams drawn
from the seed.
"""

from __future__ import annotations

import random
from dataclasses import replace

from .core import Note, PairingError, PairingResult, PairingTeam, validate_teams
from .matching import DEFAULT_WINDOW, match_teams
from .tables import number_tables

METHODS = ("random", "seed")


def draw_first_round(
    teams,
    seed: int,
    avoid_same_unit: bool = True,
    window: int = DEFAULT_WINDOW,
    method: str = "random",
) -> PairingResult:
    """Draw round 1: the same teams, seed and method always give the same tables.

    ``random``: the active teams, taken in id order, are shuffled with random.Random(seed);
    neighbours in the drawn order meet (1st v 2nd, 3rd v 4th ...).
    ``seed``: the seeded teams in seed order, then the unseeded ones shuffled; the top half
    of that order meets the bottom half (1st v (n/2+1)th ...), so seeded teams never meet
    while they are at most half the field.
    Either way the last team of the order without a bye yet has the bye when the count is
    odd, teams of one unit are kept apart when possible (moving teams least), and a coin
    from the same generator decides home and away per table.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise PairingError(f"the draw seed must be a whole number, got {seed!r}", {"seed": seed})
    if method not in METHODS:
        raise PairingError(f"unknown round 1 method {method!r}", {"method": method})
    drawn = sorted(validate_teams(teams), key=lambda team: team.id)
    if len(drawn) < 2:
        raise PairingError(
            f"{len(drawn)} active team(s): at least two are needed for a draw",
            {"teams": [team.id for team in drawn], "count": len(drawn)},
            key="pairing.error.too_few",
        )
    rng = random.Random(seed)
    if method == "seed":
        seeded = sorted((t for t in drawn if t.seed is not None), key=lambda t: (t.seed, t.id))
        rest = [t for t in drawn if t.seed is None]
        rng.shuffle(rest)
        drawn = seeded + rest
    else:
        rng.shuffle(drawn)
    explanation = [Note("pairing.note.draw_seed", {"seed": seed})]
    bye = None
    if len(drawn) % 2:
        without_bye = [index for index, team in enumerate(drawn) if not team.had_bye]
        bye = drawn.pop(without_bye[-1] if without_bye else -1).id
        explanation.append(Note("pairing.note.draw_bye", {"team": bye}))
    if method == "seed":
        half = len(drawn) // 2
        drawn = [team for pair in zip(drawn[:half], drawn[half:], strict=True) for team in pair]
    # The draw treats everyone as level: score 0, rank = position in the draw.
    level = [replace(team, score=0, rank=index) for index, team in enumerate(drawn)]
    pairs = None
    if method == "seed":
        pairs = _seeds_kept_apart(level, avoid_same_unit, window)
    if pairs is None:
        pairs = match_teams(level, avoid_same_unit, window)
    place = {team.id: team.rank for team in level}

    def coin_toss(upper: PairingTeam, lower: PairingTeam) -> tuple[int, int, frozenset[str]]:
        home, away = (upper, lower) if rng.random() < 0.5 else (lower, upper)
        return home.id, away.id, frozenset()

    pairings, notes = number_tables(pairs, place, coin_toss)
    return PairingResult(pairings, bye=bye, seed=seed, explanation=explanation + notes)


def _seeds_kept_apart(level: list[PairingTeam], avoid_same_unit: bool, window: int):
    """The pairs of the interleaved seeded order where no two seeded teams meet, even when a
    unit is kept apart (seeded teams are treated as having met each other); None when the
    seeded teams are more than half the field."""
    seeded = frozenset(team.id for team in level if team.seed is not None)
    apart = [
        replace(team, opponents=team.opponents | (seeded - {team.id}))
        if team.id in seeded
        else team
        for team in level
    ]
    try:
        pairs = match_teams(apart, avoid_same_unit, window)
    except PairingError:
        return None
    by_id = {team.id: team for team in level}
    return [(by_id[upper.id], by_id[lower.id]) for upper, lower in pairs]
