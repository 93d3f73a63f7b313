"""Seconds for the standings service: load every counting result from the database + rank.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/paisai \\
        .venv/bin/python -m bench.standings_service [--teams 5000] [--rounds 9]

Creates a scratch database (dropped at the end), stores `--rounds` rounds of random
pairings with a counting rules-engine result per match (bulk inserts, no pairing:
that is bench.pairing_service's job), then times `standings_for` cold (after
`invalidate`, so every result is read again), warm (memoised), and `rank_history`.
The pure core alone is bench.standings (target: 5,000 teams after 9 rounds <= 1 s).
"""

from __future__ import annotations

import argparse
import os
import random
import time

from bench.pairing_service import (
    finalise,
    make_event,
    record_results,
    sample_answers,
    scratch_database,
    setup_django,
)

TARGET_SECONDS = 1.0


def store_random_rounds(event, rounds: int, rng: random.Random) -> int:
    """Random pairings (byes for an odd count) with counting results; returns the match count."""
    from tournaments.models import Match, Round, RoundSlot, Team
    from tournaments.pairing.service import slots_for

    answers = sample_answers(event.preset)
    ids = list(Team.objects.filter(event=event).values_list("id", flat=True))
    total = 0
    for number in range(1, rounds + 1):
        rnd = Round.objects.create(event=event, number=number, status="published")
        rng.shuffle(ids)
        matches = [
            Match(round=rnd, table_number=table, home_id=home, away_id=away)
            for table, (home, away) in enumerate(zip(ids[0::2], ids[1::2], strict=False), 1)
        ]
        if len(ids) % 2:
            matches.append(Match(round=rnd, home_id=ids[-1], away_id=None))
        matches = Match.objects.bulk_create(matches, batch_size=2000)
        RoundSlot.objects.bulk_create(slots_for(rnd, matches), batch_size=4000)
        total += record_results(rnd, answers, rng)
        finalise(rnd)
    return total


def timed(action) -> tuple[float, object]:
    started = time.perf_counter()
    value = action()
    return time.perf_counter() - started, value


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--units", type=int, default=200)
    parser.add_argument("--preset", default="guandan-suzhou-2016")
    args = parser.parse_args(argv)
    setup_django()
    from django.db import connection

    from tournaments.freshness import invalidate
    from tournaments.standings.service import rank_history, standings_for

    with scratch_database("bench_standings") as vendor:
        print(f"database: {vendor} ({connection.settings_dict['NAME']})")
        event = make_event(args.teams, args.units, args.rounds, preset=args.preset)
        matches = store_random_rounds(event, args.rounds, random.Random(2026))
        print(f"{args.teams} teams, {args.rounds} rounds, {matches} results ({args.preset})")
        colds = []
        for _ in range(3):
            invalidate(event)
            seconds, rows = timed(lambda: standings_for(event))
            colds.append(seconds)
        warm, _ = timed(lambda: standings_for(event))
        history, _ = timed(lambda: rank_history(event))
        verdict = "ok" if min(colds) <= TARGET_SECONDS else "OVER"
        print(f"load average while measuring: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        print(
            f"standings_for cold (load + compute {len(rows)} rows): best {min(colds):.3f} s, "
            f"worst {max(colds):.3f} s (goal <= {TARGET_SECONDS:.1f} s, the pure core's target: "
            f"{verdict})"
        )
        print(f"standings_for warm (memoised, names read fresh): {warm:.3f} s")
        print(f"rank_history cold ({args.rounds} rounds): {history:.3f} s")


if __name__ == "__main__":
    main()
