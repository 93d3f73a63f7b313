"""Standings recomputed from stored match outcomes (pure: no Django).

`compute_standings` ranks the teams after all outcomes given; `round_ranks` gives
every team's rank after each round in one incremental pass. The preset's
`standings_order` lists metric keys from `metrics.METRICS`, best first.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import groupby

from rules_engine.points import PointsError, normal, to_points

from .metrics import METRICS, Ledger, Tally


class StandingsError(ValueError):
    """Bad standings input; the message names what is wrong."""


@dataclass(frozen=True)
class MatchOutcome:
    """One stored match result from both sides. `away` is None for a bye.

    `home_level_diff` is home minus away in level steps (passed A = 13). Fields a
    game does not know are 0. Match points are exact (Decimal; an int or a decimal text
    such as "0.5" is read exactly, rules_engine.points). `winner` is the team that won
    (a forfeit win and a bye are wins; None: a draw, or nobody won).
    """

    round_no: int
    home: int
    away: int | None
    home_points: Decimal | int = 0
    away_points: Decimal | int = 0
    home_level_diff: int = 0
    home_deals_won: int = 0
    away_deals_won: int = 0
    home_tricks: int = 0
    away_tricks: int = 0
    home_acc_levels: int = 0
    away_acc_levels: int = 0
    forfeit: bool = False
    home_level_points: float = 0  # 级差分 (national preset)
    away_level_points: float = 0
    winner: int | None = None


@dataclass(frozen=True)
class StandingRow:
    team: int
    rank: int  # 1 = first; teams equal on every metric share a rank
    points: Decimal  # exact, without trailing zeros (Decimal("1.5"), never "1.50")
    metrics: dict[str, float] = field(default_factory=dict)
    shared: bool = False
    moved_down: int = 0  # places moved down by an arbitration ruling


def bye_outcome(
    round_no: int,
    team: int,
    forfeit_points: tuple[float, float],
    level_diff: int = 0,
    level_points: float = 0,
) -> MatchOutcome:
    """A bye: the first of ``forfeit_points`` is the bye's match points (the edition's bye
    points, rules_engine.presets.bye_points: a forfeit win unless it says otherwise, SPEC
    2 and 3.1), and a win; `level_diff` is the level difference it stands for (0 when the
    edition's bye carries no small points, rules_engine.presets.bye_level_difference),
    `level_points` its 级差分."""
    win, _ = _points_pair(forfeit_points)
    return MatchOutcome(
        round_no,
        team,
        None,
        home_points=win,
        home_level_diff=level_diff,
        home_level_points=level_points,
        forfeit=True,
        winner=team,
    )


def exact_points(value: object, where: str) -> Decimal:
    """Match points as an exact Decimal (a float is read by its decimal text)."""
    try:
        return to_points(value)
    except PointsError as err:
        raise StandingsError(f"{where}: {err}") from None


def draw_lots(teams: Iterable[int], seed: int) -> tuple[dict[int, int], dict]:
    """Draw lots (抽签) for tied teams from a recorded seed, reproducibly (SPEC section 3).

    The team ids in ascending order are shuffled by Python's random.Random(seed); the
    first drawn gets lot 1 (the lower lot ranks first). Returns the lots and a record to
    log and show: {"seed", "method", "order"}.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise StandingsError(f"the draw seed must be a whole number, got {seed!r}")
    order = sorted(set(teams))
    random.Random(seed).shuffle(order)
    lots = {team: lot for lot, team in enumerate(order, start=1)}
    record = {
        "seed": seed,
        "method": "random.Random(seed).shuffle of the team ids in ascending order",
        "order": order,
    }
    return lots, record


def _points_pair(forfeit_points) -> tuple[float, float]:
    if not isinstance(forfeit_points, list | tuple) or len(forfeit_points) != 2:
        raise StandingsError(f"forfeit_points must be (winner, loser); got {forfeit_points!r}")
    return forfeit_points[0], forfeit_points[1]


def check_order(order: Iterable[str]) -> tuple[str, ...]:
    order = tuple(order)
    unknown = [key for key in order if key not in METRICS]
    if unknown:
        raise StandingsError(
            f"unknown standings metric {unknown[0]!r}; known: {', '.join(METRICS)}"
        )
    return order


class LedgerBuilder:
    """Adds outcomes to the team tallies, checking each one."""

    def __init__(
        self,
        teams: Iterable[int],
        draw_lots: Mapping[int, int] | None = None,
        draws: Iterable[Iterable[int]] = (),
    ):
        self.ledger = Ledger(
            {team: Tally() for team in teams},
            draw_lots=dict(draw_lots or {}),
            draws=tuple(tuple(order) for order in draws),
        )
        self.played: set[tuple[int, int]] = set()

    def add(self, outcome: MatchOutcome) -> None:
        if not isinstance(outcome, MatchOutcome):
            raise StandingsError(f"expected MatchOutcome values, got {type(outcome).__name__}")
        if outcome.home == outcome.away:
            raise StandingsError(f"round {outcome.round_no}: team {outcome.home} plays itself")
        tallies = self.ledger.tallies
        for team in (outcome.home, outcome.away):
            if team is not None and team not in tallies:
                raise StandingsError(f"round {outcome.round_no}: unknown team {team}")
            if team is not None:
                if (outcome.round_no, team) in self.played:
                    raise StandingsError(
                        f"round {outcome.round_no}: team {team} has more than one result"
                    )
                self.played.add((outcome.round_no, team))
        self.ledger.latest_round = max(self.ledger.latest_round, outcome.round_no)
        self._add_side(tallies[outcome.home], outcome, home=True)
        if outcome.away is not None:
            self._add_side(tallies[outcome.away], outcome, home=False)

    @staticmethod
    def _add_side(tally: Tally, o: MatchOutcome, home: bool) -> None:
        sign = 1 if home else -1
        points = exact_points(
            o.home_points if home else o.away_points, f"round {o.round_no}: match points"
        )
        opponent = o.away if home else o.home
        team = o.home if home else o.away
        own_acc, their_acc = (
            (o.home_acc_levels, o.away_acc_levels)
            if home
            else (o.away_acc_levels, o.home_acc_levels)
        )
        tally.points += points
        tally.wins += 1 if o.winner is not None and o.winner == team else 0
        tally.level_diff += sign * o.home_level_diff
        tally.net_levels += own_acc - their_acc
        tally.accumulated_levels += own_acc
        tally.level_points += o.home_level_points if home else o.away_level_points
        tally.deals_won_diff += sign * (o.home_deals_won - o.away_deals_won)
        tally.tricks_diff += sign * (o.home_tricks - o.away_tricks)
        tally.points_by_round[o.round_no] = tally.points_by_round.get(o.round_no, 0) + points
        if opponent is not None:
            tally.opponents.append(opponent)
            tally.points_against[opponent] = tally.points_against.get(opponent, 0) + points


def _split(ledger: Ledger, metric, group: list[int], values: dict[int, dict[str, float]]):
    """Order one tied group by a metric; yield the resulting runs of tied teams."""
    found = metric.values(ledger, group)
    # the figure shown: none where the metric says nothing about this group (head-to-head
    # for a team not tied, or tied teams that have not all met), never a made-up 0
    shown = metric.applies(ledger, group)
    for team in group:
        values[team][metric.key] = found[team] if shown else None
    sign = -1 if metric.higher_is_better else 1
    group.sort(key=lambda team: sign * found[team])
    runs = [list(run) for _, run in groupby(group, key=lambda team: found[team])]
    for run in runs:
        if metric.contextual and 1 < len(run) < len(group):
            # the head-to-head applies again among exactly the teams still tied
            yield from _split(ledger, metric, run, values)
        else:
            yield run


def rank_ledger(ledger: Ledger, order: tuple[str, ...]) -> list[StandingRow]:
    teams = sorted(ledger.tallies)
    values: dict[int, dict[str, float]] = {team: {} for team in teams}
    groups = [teams]
    for key in order:
        metric = METRICS[key]
        groups = [run for group in groups for run in _split(ledger, metric, group, values)]
    for shown in values.values():  # exact figures without trailing zeros ("1.5", not "1.50")
        for key, value in shown.items():
            if isinstance(value, Decimal):
                shown[key] = normal(value)
    rows = []
    position = 1
    for group in groups:
        for team in group:
            rows.append(
                StandingRow(
                    team=team,
                    rank=position,
                    points=normal(ledger.tallies[team].points),
                    metrics=values[team],
                    shared=len(group) > 1,
                )
            )
        position += len(group)
    return rows


def apply_moves(rows: list[StandingRow], moves: Mapping[int, int]) -> list[StandingRow]:
    """Move teams down the ranking (arbitration: e.g. a unit drops one place).

    A moved team takes a place of its own; teams around it keep their order, and
    ranks are numbered again (teams still tied keep sharing).
    """
    unknown = [team for team in moves if team not in {row.team for row in rows}]
    if unknown:
        raise StandingsError(f"ranking adjustment for unknown team {unknown[0]}")
    if any(not isinstance(places, int) or places < 0 for places in moves.values()):
        raise StandingsError("ranking adjustments must be whole numbers of places, 0 or more")
    keyed = [(row, (row.rank, row.shared)) for row in rows]
    for team in sorted(moves, key=lambda t: [r.team for r in rows].index(t)):
        index = next(i for i, (row, _) in enumerate(keyed) if row.team == team)
        row, _ = keyed.pop(index)
        target = min(index + moves[team], len(keyed))
        keyed.insert(target, (row, ("moved", team)))
    result = []
    runs = [list(run) for _, run in groupby(keyed, key=lambda item: item[1])]
    position = 1
    for run in runs:
        for row, _ in run:
            result.append(
                StandingRow(
                    team=row.team,
                    rank=position,
                    points=row.points,
                    metrics=row.metrics,
                    shared=len(run) > 1,
                    moved_down=moves.get(row.team, 0),
                )
            )
        position += len(run)
    return result


def compute_standings(
    teams: Iterable[int],
    outcomes: Iterable[MatchOutcome],
    standings_order: Iterable[str],
    draw_lots: Mapping[int, int] | None = None,
    moved_down: Mapping[int, int] | None = None,
    draws: Iterable[Iterable[int]] = (),
) -> list[StandingRow]:
    """Standings after every outcome given, best first. ``draws``: recorded draws of lots
    among tied teams, oldest first, each its drawn order (see metrics.DrawLots)."""
    order = check_order(standings_order)
    builder = LedgerBuilder(teams, draw_lots, draws)
    for outcome in outcomes:
        builder.add(outcome)
    rows = rank_ledger(builder.ledger, order)
    return apply_moves(rows, moved_down) if moved_down else rows


def round_ranks(
    teams: Iterable[int],
    outcomes: Iterable[MatchOutcome],
    standings_order: Iterable[str],
    draw_lots: Mapping[int, int] | None = None,
    draws: Iterable[Iterable[int]] = (),
) -> dict[int, dict[int, int]]:
    """Each team's rank after each round ({round: {team: rank}}), for a chart.

    The tallies grow round by round, so the cost is one ranking per round.
    """
    order = check_order(standings_order)
    builder = LedgerBuilder(teams, draw_lots, draws)
    by_round = sorted(outcomes, key=lambda outcome: outcome.round_no)
    ranks: dict[int, dict[int, int]] = {}
    for round_no, round_outcomes in groupby(by_round, key=lambda outcome: outcome.round_no):
        for outcome in round_outcomes:
            builder.add(outcome)
        ranks[round_no] = {row.team: row.rank for row in rank_ledger(builder.ledger, order)}
    return ranks
