"""Seconds per round of Swiss pairing, and a comparison with py4swiss (FIDE Dutch).

    .venv/bin/python -m bench.pairing [--sizes 1000 5000] [--rounds 7] [--py4swiss-rounds 6]

Simulates events with random results (win 2, draw 1, loss 0): round 1 by draw, then
Swiss rounds with the look-ahead on (each round keeps the rounds after it pairable;
one round ahead in fields this big). py4swiss pairs the very same 1,000-team Swiss rounds (the same
histories, written as a FIDE TRF in memory); its pairings are timed but not used.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tournaments.pairing import draw_first_round, pair_round
from tournaments.pairing.simulation import SimulatedEvent

TARGETS = {1000: 0.2, 5000: 1.5}  # seconds per round on a 2-core machine
RATIO_TARGET = 25


def simulate(size: int, rounds: int, seed: int = 2026):
    """Run an event; return (draw seconds, Swiss seconds per round, team states per round)."""
    event = SimulatedEvent(size, random.Random(seed), units=size // 20)
    start = time.perf_counter()
    result = draw_first_round(event.teams(), seed)
    draw_seconds = time.perf_counter() - start
    history = []
    event.play(result)
    swiss_seconds = []
    for number in range(2, rounds + 1):
        history.append({team_id: _copy(record) for team_id, record in event.records.items()})
        teams = event.teams()
        start = time.perf_counter()
        result = pair_round(teams, rounds_after=rounds - number)
        swiss_seconds.append(time.perf_counter() - start)
        event.play(result)
    return draw_seconds, swiss_seconds, history


def _copy(record):
    return (record.score, list(record.results))


def py4swiss_seconds(histories) -> list[float] | str:
    """Time py4swiss's Dutch engine on each recorded state, or say why it cannot run."""
    try:
        from py4swiss.engines import DutchEngine
    except ImportError as error:  # pragma: no cover - benchmark-only dependency
        return f"py4swiss is not installed ({error}); pip install py4swiss==0.3.1"
    seconds = []
    for records in histories:
        trf = to_trf(records)
        start = time.perf_counter()
        DutchEngine.generate_pairings(trf)
        seconds.append(time.perf_counter() - start)
    return seconds


def to_trf(records):
    """A parsed TRF of the event so far: 2/1/0 points become chess 1/½/0."""
    from py4swiss.trf import ParsedTrf
    from py4swiss.trf.codes import PlayerCode
    from py4swiss.trf.results import ColorToken, ResultToken, RoundResult
    from py4swiss.trf.sections import PlayerSection, XSection

    tokens = {"W": ResultToken.WIN, "D": ResultToken.DRAW, "L": ResultToken.LOSS}
    colors = {"H": ColorToken.WHITE, "A": ColorToken.BLACK}
    ordered = sorted(records, key=lambda team_id: (-records[team_id][0], team_id))
    rank = {team_id: index + 1 for index, team_id in enumerate(ordered)}
    sections = []
    for team_id, (score, results) in sorted(records.items()):
        round_results = [
            RoundResult(
                id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=ResultToken.PAIRING_ALLOCATED_BYE
            )
            if opponent is None
            else RoundResult(id=opponent, color=colors[side], result=tokens[outcome])
            for opponent, side, outcome in results
        ]
        sections.append(
            PlayerSection(
                code=PlayerCode.PLAYER,
                starting_number=team_id,
                name=f"Team {team_id}",
                points_times_ten=score * 5,
                rank=rank[team_id],
                results=round_results,
            )
        )
    trf = ParsedTrf(player_sections=sections, x_section=XSection(number_of_rounds=9))
    trf.validate_contents()
    return trf


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--py4swiss-rounds", type=int, default=6, help="0 skips py4swiss")
    args = parser.parse_args(argv)

    print(f"Swiss pairing, {args.rounds} rounds, random results, look-ahead on")
    histories = {}
    for size in args.sizes:
        draw, swiss, histories[size] = simulate(size, args.rounds)
        per_round = (draw + sum(swiss)) / args.rounds
        target = TARGETS.get(size)
        verdict = "" if target is None else f"  target <= {target} s: {per_round <= target}"
        print(
            f"{size:>6} teams: {per_round:.3f} s per round over {args.rounds} rounds "
            f"(draw {draw:.3f} s; Swiss rounds mean {statistics.mean(swiss):.3f} s, "
            f"max {max(swiss):.3f} s){verdict}"
        )
        if size == 1000 and args.py4swiss_rounds:
            states = histories[size][: args.py4swiss_rounds]
            theirs = py4swiss_seconds(states)
            if isinstance(theirs, str):
                print(f"  py4swiss: not run: {theirs}")
                continue
            ours = statistics.mean(swiss[: len(states)])
            ratio = statistics.mean(theirs) / ours
            print(
                f"  py4swiss 0.3.1 Dutch on the same {len(states)} Swiss rounds: "
                f"{statistics.mean(theirs):.3f} s per round; ours {ours:.3f} s; "
                f"ratio {ratio:.0f}x (target >= {RATIO_TARGET}x: {ratio >= RATIO_TARGET})"
            )


if __name__ == "__main__":
    main()
