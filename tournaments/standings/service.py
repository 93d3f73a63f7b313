"""Standings from the database: load stored results, rank with the pure core, memoise.

What counts
    Every match whose round is no longer a draft, through the *counting* ResultVersion
    of the match (its ``outcome`` is the rules engine's answer, by side; the home team's
    side is rules_engine.seating.side_of). A match without a counting version does not
    count yet. A bye (a match with no away team)
    counts as the preset's forfeit win for its team as soon as its round is published.

Caching (how a results confirm stays cheap)
    Confirming a result must not recompute standings. Each event has a revision number
    in the database (``Event.revision``: the sum of its ``EventRevision`` counters),
    bumped by ``tournaments.freshness.invalidate`` in the same transaction as every change of what the public
    sees, so a cache can never hold an answer newer than its key or serve one older than the
    database, whatever happened to Redis.
    Standings are computed on read and memoised under (event, revision, after_round,
    the teams' ids/statuses/draw lots, the active ranking adjustments). The bumps:

    every write of a public model's rows, saves and queryset writes alike, and a transaction
    that changes several matches once at its end: all in one module, tournaments.freshness.

    Team names, units and statuses are read fresh on every call (one small query). The
    memo lives in Django's cache (Redis in production, shared by every worker); a cache
    outage only costs recomputation (config/cache.py).
"""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.core.cache import cache
from django.db.models import FloatField, IntegerField, Q
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from rules_engine.outcome import PARTS, Outcome
from rules_engine.points import answer_number
from rules_engine.presets import (
    bye_level_difference,
    bye_level_points,
    bye_points,
    forfeit_level_difference,
)
from rules_engine.seating import AWAY, HOME, by_side
from tournaments import glossary
from tournaments.freshness import revision
from tournaments.models import (
    Event,
    LotDraw,
    Match,
    RankingAdjustment,
    ResultVersion,
    Round,
    Team,
)

from .core import MatchOutcome, StandingRow, bye_outcome, compute_standings, round_ranks

MEMO_SECONDS = 3600


@dataclass(frozen=True)
class TeamStanding(StandingRow):
    """A standings row with the team's name, unit and status (withdrawn teams are flagged)."""

    name: str = ""
    unit: str = ""
    status: str = Team.Status.ACTIVE
    # the stage whose ranking placed the team in an event's official ranking ("" otherwise)
    stage: str = ""
    # that stage is a knockout: the place is the bracket's, not the points' (the points and
    # tiebreaks are not shown beside it)
    knockout: bool = False
    # 未参赛 (never checked in, played no match): listed apart, ``rank`` None
    absent: bool = False

    @property
    def active(self) -> bool:
        return self.status == Team.Status.ACTIVE

    @classmethod
    def of(cls, row: StandingRow, name: str, unit: str | None, status: str) -> TeamStanding:
        """The core's ``row`` with the team's name, unit and status."""
        return cls(
            team=row.team,
            rank=row.rank,
            points=row.points,
            metrics=row.metrics,
            shared=row.shared,
            moved_down=row.moved_down,
            name=name,
            unit=unit or "",
            status=status,
        )


def metric_labels(event: Event, stage_kind: str | None = None) -> list[tuple[str, str]]:
    """(key, label in the active language) of each metric in the edition's order (of a
    stage of kind ``stage_kind`` when given: its own order, SPEC 3.1)."""
    order = event.get_preset().standings_order_for(stage_kind)
    return [(key, glossary.word(glossary.METRICS, key)) for key in order]


def shown_metrics(row: StandingRow) -> dict[str, float | None]:
    """The row's metric values for display: None where a team has none (no drawing lot);
    exact points (对手分) as ``2`` or ``0.5``, never ``2.0`` (rules_engine.points)."""
    return {key: _shown(value) for key, value in row.metrics.items()}


def _shown(value):
    if isinstance(value, float) and math.isinf(value):
        return None
    if isinstance(value, Decimal):
        return answer_number(value)
    return value


# --- loading outcomes ---------------------------------------------------------------------


# The values of the rules engine's answer that standings read, fetched as plain SQL values
# (not the whole JSON with its long trace); where they sit in the answer is the engine's
# (rules_engine.outcome.PARTS). name -> SQL type (None: text).
FETCHED_PARTS = {
    # match points as the database gives the JSON number (text, or an int / float): read
    # exactly by Outcome (rules_engine.points), never through a float column
    "points_ew": None,
    "points_ns": None,
    "level_difference": IntegerField(),
    "deals_ew": IntegerField(),
    "deals_ns": IntegerField(),
    "tricks_ew": IntegerField(),
    "tricks_ns": IntegerField(),
    "level_ew": None,
    "level_ns": None,
    "passed_a": None,
    "forfeit": None,
    "level_points_ew": FloatField(),
    "level_points_ns": FloatField(),
    "winner": None,
}


def counting_parts(rounds):
    """(round, home, away, *FETCHED_PARTS) of every counting result in `rounds`, one query."""
    parts = {}
    for name, kind in FETCHED_PARTS.items():
        value = KT("outcome__" + "__".join(PARTS[name]))
        parts[name] = Cast(value, kind) if kind else value
    rows = ResultVersion.objects.filter(match__round__in=rounds, is_counting=True)
    return rows.annotate(**parts).values_list(
        "match__round__number", "match__home_id", "match__away_id", *parts
    )


def match_outcome(
    round_no: int, home: int, away: int, outcome: Outcome, forfeit_diff: int = 0
) -> MatchOutcome | None:
    """The standings' view of one match (None when it gives no match points).

    A forfeit has no levels: it counts `forfeit_diff` levels for the side that played
    (see rules_engine.presets.forfeit_level_difference) and minus that for the other.
    """
    if not outcome.counts:
        return None
    h, a = HOME, AWAY
    diff = outcome.difference_for(h)
    if outcome.forfeit in (h, a):  # a forfeit answer has no levels (difference null)
        diff = forfeit_diff if outcome.forfeit == a else -forfeit_diff
    winner = by_side(home, away)[outcome.winner] if outcome.winner else None
    return MatchOutcome(
        round_no=round_no,
        home=home,
        away=away,
        home_points=outcome.points(h),
        away_points=outcome.points(a),
        home_level_diff=diff,
        home_deals_won=outcome.deals(h),
        away_deals_won=outcome.deals(a),
        home_tricks=outcome.tricks(h),
        away_tricks=outcome.tricks(a),
        home_acc_levels=outcome.accumulated_levels(h),
        away_acc_levels=outcome.accumulated_levels(a),
        forfeit=bool(outcome.forfeit),
        home_level_points=outcome.level_points(h),
        away_level_points=outcome.level_points(a),
        winner=winner,
    )


def outcomes_for(event: Event, up_to_round: int | None = None) -> list[MatchOutcome]:
    """Every counted match outcome of the event (two queries, whatever the size)."""
    rounds = _counted_rounds(event, up_to_round)
    preset = event.get_preset()
    win = bye_points(preset)  # the edition's bye, apart from a forfeit (SPEC 3.1)
    forfeit_diff = forfeit_level_difference(preset)
    bye_diff, bye_points_levels = bye_level_difference(preset), bye_level_points(preset)
    byes = Match.objects.filter(round__in=rounds, away__isnull=True)
    outcomes = [
        bye_outcome(round_no, home, (win, 0), bye_diff, bye_points_levels)
        for round_no, home in byes.values_list("round__number", "home_id")
    ]
    for round_no, home, away, *values in counting_parts(rounds):
        if away is not None:
            parts = Outcome.from_parts(dict(zip(FETCHED_PARTS, values, strict=True)))
            outcome = match_outcome(round_no, home, away, parts, forfeit_diff)
            if outcome is not None:
                outcomes.append(outcome)
    return outcomes


def _counted_rounds(event: Event, up_to_round: int | None):
    """The rounds whose matches count: every round past its draft, up to `up_to_round`."""
    rounds = Round.objects.filter(event=event).exclude(status=Round.Status.DRAFT)
    if up_to_round is not None:
        rounds = rounds.filter(number__lte=up_to_round)
    return rounds


# --- standings ----------------------------------------------------------------------------


def _teams(event: Event) -> list[tuple[int, str, str, str, int | None]]:
    return list(
        Team.objects.filter(event=event)
        .order_by("pk")
        .values_list("id", "name", "unit__name", "status", "draw_lot")
    )


def _moves(event: Event) -> dict[int, int]:
    """Net places down per team from active ranking adjustments (moving up is not supported:
    a net negative total counts as 0)."""
    totals: dict[int, int] = defaultdict(int)
    rows = RankingAdjustment.objects.filter(
        event=event, cancelled_at__isnull=True, unit__isnull=True
    )
    for team, places in rows.values_list("team_id", "places"):
        totals[team] += places
    return {team: places for team, places in totals.items() if places > 0}


def _draws(event: Event, after_round: int | None = None) -> list[tuple[int, ...]]:
    """The recorded draws of lots (oldest first) that apply to the standings after round
    ``after_round`` (None: the latest): those drawn after that round or an earlier one."""
    rows = LotDraw.objects.filter(event=event).order_by("drawn_at", "pk")
    if after_round is not None:
        rows = rows.filter(Q(after_round__isnull=True) | Q(after_round__lte=after_round))
    return [tuple(order) for order in rows.values_list("order", flat=True)]


def recorded_draws(event: Event, after_round: int | None = None):
    """The recorded draws of lots that apply after ``after_round`` (stage standings)."""
    return _draws(event, after_round)


def _memo_key(event: Event, what: str, after_round, teams, moves) -> str:
    settings = sorted((event.settings or {}).items())
    digest = hashlib.sha1(
        repr(([(t[0], t[4]) for t in teams], sorted(moves.items()), settings)).encode()
    ).hexdigest()[:16]
    stamp = event.created_at.timestamp() if event.created_at else 0
    return (
        f"paisai:standings:{event.pk}:{stamp}:{revision(event)}:"
        f"{what}:{after_round}:{event.preset}:{digest}"
    )


def _memoised(key: str, compute):
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, MEMO_SECONDS)
    return value


def standings_for(event: Event, after_round: int | None = None) -> list[TeamStanding]:
    """The standings after round ``after_round`` (None: every counted round), best first.

    Every team of the event is listed, withdrawn and suspended ones too (see ``status``).
    """
    teams = _teams(event)
    moves = _moves(event)
    key = _memo_key(event, "rows", after_round, teams, moves)

    def compute() -> list[StandingRow]:
        return compute_standings(
            [team[0] for team in teams],
            outcomes_for(event, after_round),
            event.get_preset().standings_order,
            draw_lots={team[0]: team[4] for team in teams if team[4] is not None},
            moved_down=moves,
            draws=_draws(event, after_round),
        )

    details = {team[0]: team for team in teams}
    return [TeamStanding.of(row, *details[row.team][1:4]) for row in _memoised(key, compute)]


def rank_history(event: Event) -> dict[int, list[int]]:
    """Each team's rank after each counted round, in round order: {team id: [rank, ...]}."""
    teams = _teams(event)
    key = _memo_key(event, "history", None, teams, {})

    def compute() -> dict[int, list[int]]:
        by_round = round_ranks(
            [team[0] for team in teams],
            outcomes_for(event),
            event.get_preset().standings_order,
            draw_lots={team[0]: team[4] for team in teams if team[4] is not None},
            draws=_draws(event),
        )
        history: dict[int, list[int]] = {team[0]: [] for team in teams}
        for round_no in sorted(by_round):
            for team, rank in by_round[round_no].items():
                history[team].append(rank)
        return history

    return _memoised(key, compute)
