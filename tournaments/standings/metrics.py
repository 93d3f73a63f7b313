"""Tiebreak metrics: a registry of small classes, one per key a preset may list.

Every metric reads a `Ledger` (the tallies of all stored match outcomes) and gives
each team a number; higher ranks first unless `higher_is_better` is False. A
contextual metric (head-to-head) depends on which teams are tied, so it is
computed per group of tied teams rather than once for the field.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal


@dataclass(slots=True)
class Tally:
    """What one team has accumulated over the outcomes read so far."""

    points: Decimal = Decimal(0)  # exact: a hundred 0.5s are 50
    wins: int = 0  # matches won (a forfeit win and a bye count)
    level_diff: int = 0
    net_levels: int = 0
    accumulated_levels: int = 0
    level_points: float = 0  # 级差分 (national preset)
    deals_won_diff: int = 0
    tricks_diff: int = 0
    opponents: list[int] = field(default_factory=list)
    # points scored v each opponent, and in each round (exact)
    points_against: dict[int, Decimal] = field(default_factory=dict)
    points_by_round: dict[int, Decimal] = field(default_factory=dict)


@dataclass
class Ledger:
    tallies: dict[int, Tally]
    latest_round: int = 0
    draw_lots: dict[int, int] = field(default_factory=dict)
    # recorded draws of lots, oldest first: each the drawn order of its teams, first first
    draws: tuple[tuple[int, ...], ...] = ()


class Metric:
    # The metric's key; its words are the shell's (tournaments.glossary.METRICS): this pure
    # core holds no text to translate.
    key: str = ""
    higher_is_better: bool = True
    contextual: bool = False

    def value(self, ledger: Ledger, team: int) -> float:
        raise NotImplementedError

    def values(self, ledger: Ledger, group: list[int]) -> dict[int, float]:
        """Values for a group of tied teams (the whole field for a plain metric)."""
        return {team: self.value(ledger, team) for team in group}

    def applies(self, ledger: Ledger, group: list[int]) -> bool:
        """Whether the metric says anything about this group (its figure is shown); a plain
        metric always does."""
        return True


class TallyField(Metric):
    """A metric that is one field of the team's tally, summed over its matches."""

    def __init__(self, key: str):
        self.key = key

    def value(self, ledger: Ledger, team: int) -> float:
        return getattr(ledger.tallies[team], self.key)


class LatestRoundScore(Metric):
    key = "latest_round_score"

    def value(self, ledger: Ledger, team: int) -> float:
        return ledger.tallies[team].points_by_round.get(ledger.latest_round, 0)


class OpponentsPoints(Metric):
    """对手分: the sum of the match points of every opponent met (once a meeting; a bye
    meets nobody), exact."""

    key = "opponents_points"

    def value(self, ledger: Ledger, team: int) -> Decimal:
        tallies = ledger.tallies
        return sum((tallies[o].points for o in tallies[team].opponents), Decimal(0))


class Contribution(Metric):
    """贡献分 (南山杯 2026 附录一 一.3, the Swiss's fourth tiebreak). The guide names it
    without defining it; it is read as 累积小分 (Σ own level − 2, +1 for passing A), as the
    event's own manager reads it (NZSpark/guandan, commit 8153fce: "贡献分（累积小分）").
    Unverified: when a source defines it otherwise, only this metric changes."""

    key = "contribution"

    def value(self, ledger: Ledger, team: int) -> float:
        return ledger.tallies[team].accumulated_levels


class DrawLots(Metric):
    """The lot each team drew; the lower lot ranks first, teams without one share.

    A recorded draw among tied teams (SPEC 3) decides a group of tied teams when every team
    of the group was in it (the latest such draw): their places in its order. Otherwise a
    team's own lot (``draw_lots``) applies.
    """

    key = "draw_lots"
    higher_is_better = False

    def value(self, ledger: Ledger, team: int) -> float:
        return ledger.draw_lots.get(team, math.inf)

    def values(self, ledger: Ledger, group: list[int]) -> dict[int, float]:
        tied = set(group)
        for order in reversed(ledger.draws):
            if len(tied) > 1 and tied <= set(order):
                place = {team: index for index, team in enumerate(order, start=1)}
                return {team: place[team] for team in group}
        return super().values(ledger, group)


class HeadToHead(Metric):
    """Points scored in the matches among exactly the tied teams.

    It applies only when every team of the group has played every other (SPEC 3, as
    FIDE's direct encounter); otherwise the group stays tied for the next tiebreak.
    """

    key = "head_to_head"
    contextual = True

    def applies(self, ledger: Ledger, group: list[int]) -> bool:
        """Only among two or more tied teams that have all met: a team alone at its place, or
        a group not all met, has no head-to-head figure (shown blank, not 0)."""
        tied = set(group)
        return len(tied) > 1 and all(
            tied - {team} <= set(ledger.tallies[team].opponents) for team in group
        )

    def values(self, ledger: Ledger, group: list[int]) -> dict[int, float]:
        tied = set(group)
        if not HeadToHead.applies(self, ledger, group):
            return dict.fromkeys(group, 0)
        result = {}
        for team in group:
            against = ledger.tallies[team].points_against
            result[team] = sum(points for other, points in against.items() if other in tied)
        return result


class HeadToHeadTwo(HeadToHead):
    """Head-to-head, applied only when exactly two teams are tied: for three or more tied
    teams it is skipped and the next tiebreak decides (2017 national; 南山杯 2026 附录一
    二.4: 3 队及以上总积分相同时，则比较各队的净积小分和累积小分)."""

    key = "head_to_head_two"

    def applies(self, ledger: Ledger, group: list[int]) -> bool:
        return len(group) == 2 and super().applies(ledger, group)

    def values(self, ledger: Ledger, group: list[int]) -> dict[int, float]:
        if len(group) != 2:
            return dict.fromkeys(group, 0)
        return super().values(ledger, group)


METRICS: dict[str, Metric] = {
    metric.key: metric
    for metric in (
        TallyField("points"),
        TallyField("level_diff"),
        HeadToHead(),
        HeadToHeadTwo(),
        TallyField("net_levels"),
        TallyField("accumulated_levels"),
        TallyField("level_points"),
        TallyField("deals_won_diff"),
        TallyField("tricks_diff"),
        LatestRoundScore(),
        OpponentsPoints(),
        TallyField("wins"),
        Contribution(),
        DrawLots(),
    )
}
