"""Round 1: a reproducible draw (抽签) from a recorded random seed (SPEC section 2)."""

from __future__ import annotations

import random
from dataclasses import replace

from .core import Note, PairingError, PairingResult, PairingTeam, validate_teams
from .matching import DEFAULT_WINDOW, match_teams
from .tables import number_tables


def draw_first_round(
    teams, seed: int, avoid_same_unit: bool = True, window: int = DEFAULT_WINDOW
) -> PairingResult:
    """Draw round 1: the same teams and seed always give the same tables.

    The active teams, taken in id order, are shuffled with random.Random(seed); the
    last team drawn (without a bye yet) has the bye when the count is odd. Neighbours in the drawn order
    meet (1st v 2nd, 3rd v 4th ...), except that teams of one unit are kept apart
    when possible. A coin from the same generator decides home and away per table.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise PairingError(f"the draw seed must be a whole number, got {seed!r}", {"seed": seed})
    drawn = sorted(validate_teams(teams), key=lambda team: team.id)
    if len(drawn) < 2:
        raise PairingError(
            f"{len(drawn)} active team(s): at least two are needed for a draw",
            {"teams": [team.id for team in drawn], "count": len(drawn)},
            key="pairing.error.too_few",
        )
    rng = random.Random(seed)
    rng.shuffle(drawn)
    explanation = [Note("pairing.note.draw_seed", {"seed": seed})]
    bye = None
    if len(drawn) % 2:
        without_bye = [index for index, team in enumerate(drawn) if not team.had_bye]
        bye = drawn.pop(without_bye[-1] if without_bye else -1).id
        explanation.append(Note("pairing.note.draw_bye", {"team": bye}))
    # The draw treats everyone as level: score 0, rank = position in the draw.
    level = [replace(team, score=0, rank=index) for index, team in enumerate(drawn)]
    pairs = match_teams(level, avoid_same_unit, window)
    place = {team.id: team.rank for team in level}

    def coin_toss(upper: PairingTeam, lower: PairingTeam) -> tuple[int, int, frozenset[str]]:
        home, away = (upper, lower) if rng.random() < 0.5 else (lower, upper)
        return home.id, away.id, frozenset()

    pairings, notes = number_tables(pairs, place, coin_toss)
    return PairingResult(pairings, bye=bye, seed=seed, explanation=explanation + notes)
