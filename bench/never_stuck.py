"""How many small Swiss events finish every round without a rematch, without and with
the look-ahead (SPEC section 2, never stuck).

    .venv/bin/python -m bench.never_stuck [--events 1000] [--seed 2026]

Each event: 7-16 teams, n-1 rounds (a round robin shows a rematch-free schedule
exists from the start), random results on a scale drawn from 2/1/0, 20-point and
3/2/1, round 1 by draw, then Swiss rounds. The same events (same seeds) are paired
twice: with `rounds_after=0` (no look-ahead: the pairing before this change) and with
the rounds still scheduled (exhaustive look-ahead at this size).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tournaments.pairing import draw_first_round, pair_round
from tournaments.pairing.simulation import SCALES, SimulatedEvent


def run_event(size: int, seed: int, scale: str, look_ahead: bool):
    """Play one event; return (rounds paired with a rematch, seconds per Swiss round)."""
    event = SimulatedEvent(size, random.Random(seed), scale=scale)
    rounds = size - 1
    event.play(draw_first_round(event.teams(), seed))
    stuck, seconds = 0, []
    for number in range(2, rounds + 1):
        teams = event.teams()
        start = time.perf_counter()
        result = pair_round(teams, rounds_after=rounds - number if look_ahead else 0)
        seconds.append(time.perf_counter() - start)
        stuck += result.rematches > 0
        event.play(result)
    return stuck, seconds


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    events = [
        (rng.randint(7, 16), rng.randrange(2**32), rng.choice(sorted(SCALES)))
        for _ in range(args.events)
    ]
    print(f"{args.events} simulated events, 7-16 teams, n-1 rounds, scales {sorted(SCALES)}")
    for look_ahead in (False, True):
        clean, stuck_rounds, seconds = 0, 0, []
        for size, seed, scale in events:
            stuck, times = run_event(size, seed, scale, look_ahead)
            clean += stuck == 0
            stuck_rounds += stuck
            seconds += times
        label = "with look-ahead   " if look_ahead else "without look-ahead"
        print(
            f"  {label}: {clean}/{args.events} events finish every round without a rematch "
            f"({stuck_rounds} rounds needed one); per round mean "
            f"{statistics.mean(seconds) * 1000:.1f} ms, max {max(seconds) * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
