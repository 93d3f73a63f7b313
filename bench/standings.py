"""Seconds to compute standings for a large event from its stored match outcomes.

    .venv/bin/python -m bench.standings [--teams 5000] [--rounds 9]

Builds random outcomes (win 2, draw 1, loss 0, level differences, deals, tricks),
then times compute_standings under every preset order and round_ranks (rank after
each round, for the chart).
"""

from __future__ import annotations

import argparse
import random
import time

from rules_engine.presets import PRESETS
from tournaments.standings import MatchOutcome, compute_standings, round_ranks

TARGET_SECONDS = 1.0  # 5,000 teams after 9 rounds, on a 2-core machine

PRESET_ORDERS = {name: preset.standings_order for name, preset in PRESETS.items()}


def random_outcomes(teams: int, rounds: int, rng: random.Random) -> list[MatchOutcome]:
    """Random pairings and results; with an odd count the team left over has a bye."""
    ids = list(range(1, teams + 1))
    outcomes = []
    for round_no in range(1, rounds + 1):
        rng.shuffle(ids)
        for home, away in zip(ids[0::2], ids[1::2], strict=False):
            diff = rng.randint(-13, 13)
            points = (2, 0) if diff > 0 else (0, 2) if diff < 0 else (1, 1)
            outcomes.append(
                MatchOutcome(
                    round_no,
                    home,
                    away,
                    *points,
                    home_level_diff=diff,
                    home_deals_won=rng.randint(0, 3),
                    away_deals_won=rng.randint(0, 3),
                    home_tricks=rng.randint(0, 39),
                    away_tricks=rng.randint(0, 39),
                    home_acc_levels=rng.randint(0, 13),
                    away_acc_levels=rng.randint(0, 13),
                )
            )
        if teams % 2:
            outcomes.append(MatchOutcome(round_no, ids[-1], None, 2, forfeit=True))
    return outcomes


def timed(function, *args, **kwargs) -> float:
    start = time.perf_counter()
    function(*args, **kwargs)
    return time.perf_counter() - start


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args(argv)

    teams = list(range(1, args.teams + 1))
    outcomes = random_outcomes(args.teams, args.rounds, random.Random(2026))
    lots = {team: index for index, team in enumerate(random.Random(1).sample(teams, len(teams)))}
    print(f"Standings: {args.teams} teams, {args.rounds} rounds, {len(outcomes)} outcomes")
    for name, order in PRESET_ORDERS.items():
        seconds = timed(compute_standings, teams, outcomes, order, draw_lots=lots)
        print(
            f"  {name:<22} {seconds:.3f} s  (target <= {TARGET_SECONDS} s: {seconds <= TARGET_SECONDS})"
        )
    seconds = timed(round_ranks, teams, outcomes, PRESET_ORDERS["guandan-suzhou-2016"], lots)
    print(f"  round_ranks, all {args.rounds} rounds (suzhou order): {seconds:.3f} s")


if __name__ == "__main__":
    main()
