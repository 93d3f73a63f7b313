"""Standings from the database: load stored results, rank with the pure core, memoise.

What counts
    Every match whose round is no longer a draft, through the *counting* ResultVersion
    of the match (its ``outcome`` is the rules engine's answer, home = EW). A match
    without a counting version does not count yet. A bye (a match with no away team)
    counts as the preset's forfeit win for its team as soon as its round is published.

Caching (how a results confirm stays cheap)
    Confirming a result must not recompute standings. Each tournament has a revision
    number in Django's cache under ``paisai:standings-rev:<tournament id>``. Standings
    are computed on read and memoised under (tournament, revision, after_round, the
    teams' ids/statuses/draw lots, the active ranking adjustments). Whoever changes what
    counts calls :func:`invalidate` afterwards, which bumps the revision:

    - the results engineer, after a result version becomes (or stops being) counting;
    - arbitration, after a ruling changes a result or a ranking adjustment;
    - this area, when a round is published (its byes start counting).

    Team names, units and statuses are read fresh on every call (one small query), so
    registration changes never need an invalidate. In production with several worker
    processes set CACHE_URL (Redis) so that every process sees the same revision.
"""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache

from django.core.cache import cache
from django.db.models import FloatField, IntegerField
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from rules_engine.cards import parse_level
from rules_engine.errors import RulesError
from rules_engine.presets import forfeit_level_difference, forfeit_match_points, level_points
from tournaments.models import Match, RankingAdjustment, ResultVersion, Round, Team, Tournament

from .core import MatchOutcome, StandingRow, bye_outcome, compute_standings, round_ranks
from .metrics import METRICS

MEMO_SECONDS = 3600
PASSED_A_BONUS = 1  # accumulated levels: own level index (2=0 … A=12), +1 for passing A


@dataclass(frozen=True)
class TeamStanding(StandingRow):
    """A standings row with the team's name, unit and status (withdrawn teams are flagged)."""

    name: str = ""
    unit: str = ""
    status: str = Team.Status.ACTIVE

    @property
    def active(self) -> bool:
        return self.status == Team.Status.ACTIVE


def revision_key(tournament: Tournament | int) -> str:
    return f"paisai:standings-rev:{getattr(tournament, 'pk', tournament)}"


def revision(tournament: Tournament | int) -> int:
    key = revision_key(tournament)
    value = cache.get(key)
    if value is None:
        cache.add(key, 1, timeout=None)
        value = cache.get(key, 1)
    return value


def invalidate(tournament: Tournament | int) -> int:
    """Bump the tournament's standings revision; the next read recomputes. Cheap (one incr)."""
    key = revision_key(tournament)
    try:
        return cache.incr(key)
    except ValueError:  # no revision yet (or evicted): start a new one
        cache.add(key, 2, timeout=None)
        return cache.get(key, 2)


def metric_labels(tournament: Tournament) -> list[tuple[str, str, str]]:
    """(key, English label, Chinese label) of each metric in the preset's order."""
    return [
        (key, METRICS[key].label_en, METRICS[key].label_zh)
        for key in tournament.get_preset().standings_order
    ]


def shown_metrics(row: StandingRow) -> dict[str, float | None]:
    """The row's metric values for display: None where a team has none (no drawing lot)."""
    return {
        key: None if isinstance(value, float) and math.isinf(value) else value
        for key, value in row.metrics.items()
    }


# --- loading outcomes ---------------------------------------------------------------------


# The parts of the rules engine's answer that standings read, fetched as plain SQL values
# (not the whole JSON with its long trace): (name, path in the answer, SQL type).
ANSWER_PARTS = (
    ("home_points", "match_points__EW", FloatField()),
    ("away_points", "match_points__NS", FloatField()),
    ("level_difference", "level_difference", IntegerField()),
    ("home_deals", "deals_won__EW", IntegerField()),
    ("away_deals", "deals_won__NS", IntegerField()),
    ("home_tricks", "tricks__EW", IntegerField()),
    ("away_tricks", "tricks__NS", IntegerField()),
    ("home_level", "levels__EW", None),
    ("away_level", "levels__NS", None),
    ("passed_a", "passed_a", None),
    ("forfeit", "forfeit", None),
    ("home_level_points", "level_points__EW", FloatField()),
    ("away_level_points", "level_points__NS", FloatField()),
)


@lru_cache(maxsize=64)
def level_index(text: str | None) -> int:
    """2=0 … A=12 (the rules engine's level count); no or an unreadable level counts 0."""
    try:
        return parse_level(text) if text is not None else 0
    except RulesError:
        return 0


def counting_parts(rounds):
    """(round, home, away, *ANSWER_PARTS) of every counting result in `rounds`, in one query."""
    parts = {
        name: Cast(KT(f"outcome__{path}"), kind) if kind else KT(f"outcome__{path}")
        for name, path, kind in ANSWER_PARTS
    }
    rows = ResultVersion.objects.filter(match__round__in=rounds, is_counting=True)
    return rows.annotate(**parts).values_list(
        "match__round__number", "match__home_id", "match__away_id", *parts
    )


def outcome_from_parts(
    round_no: int, home: int, away: int, parts, forfeit_diff: int = 0
) -> MatchOutcome | None:
    """A MatchOutcome from the answer's parts (None when the answer gives no match points).

    A forfeit has no levels: it counts `forfeit_diff` levels for the side that played
    (see rules_engine.presets.forfeit_level_difference) and minus that for the other.
    """
    (home_points, away_points, diff, home_deals, away_deals, home_tricks, away_tricks,
     home_level, away_level, passed_a, forfeit, home_level_points,
     away_level_points) = parts  # fmt: skip
    if home_points is None or away_points is None:
        return None
    if forfeit in ("EW", "NS"):  # a forfeit answer has no levels (its difference is null)
        diff = forfeit_diff if forfeit == "NS" else -forfeit_diff
    return MatchOutcome(
        round_no=round_no,
        home=home,
        away=away,
        home_points=home_points,
        away_points=away_points,
        home_level_diff=diff or 0,
        home_deals_won=home_deals or 0,
        away_deals_won=away_deals or 0,
        home_tricks=home_tricks or 0,
        away_tricks=away_tricks or 0,
        home_acc_levels=level_index(home_level) + (PASSED_A_BONUS if passed_a == "EW" else 0),
        away_acc_levels=level_index(away_level) + (PASSED_A_BONUS if passed_a == "NS" else 0),
        forfeit=bool(forfeit),
        home_level_points=home_level_points or 0,
        away_level_points=away_level_points or 0,
    )


def outcomes_for(tournament: Tournament, up_to_round: int | None = None) -> list[MatchOutcome]:
    """Every counted match outcome of the event (two queries, whatever the size)."""
    rounds = _counted_rounds(tournament, up_to_round)
    preset = tournament.get_preset()
    win = forfeit_match_points(preset, "NS")["EW"]
    forfeit_diff = forfeit_level_difference(preset)
    bye_level_points = (level_points(preset, {"forfeit": "NS"}) or {"EW": 0})["EW"]
    byes = Match.objects.filter(round__in=rounds, away__isnull=True)
    outcomes = [
        bye_outcome(round_no, home, (win, 0), forfeit_diff, bye_level_points)
        for round_no, home in byes.values_list("round__number", "home_id")
    ]
    for round_no, home, away, *parts in counting_parts(rounds):
        if away is not None:
            outcome = outcome_from_parts(round_no, home, away, parts, forfeit_diff)
            if outcome is not None:
                outcomes.append(outcome)
    return outcomes


def _counted_rounds(tournament: Tournament, up_to_round: int | None):
    """The rounds whose matches count: every round past its draft, up to `up_to_round`."""
    rounds = Round.objects.filter(tournament=tournament).exclude(status=Round.Status.DRAFT)
    if up_to_round is not None:
        rounds = rounds.filter(number__lte=up_to_round)
    return rounds


# --- standings ----------------------------------------------------------------------------


def _teams(tournament: Tournament) -> list[tuple[int, str, str, str, int | None]]:
    return list(
        Team.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list("id", "name", "unit__name", "status", "draw_lot")
    )


def _moves(tournament: Tournament) -> dict[int, int]:
    """Net places down per team from active ranking adjustments (moving up is not supported:
    a net negative total counts as 0)."""
    totals: dict[int, int] = defaultdict(int)
    rows = RankingAdjustment.objects.filter(
        tournament=tournament, cancelled_at__isnull=True, unit__isnull=True
    )
    for team, places in rows.values_list("team_id", "places"):
        totals[team] += places
    return {team: places for team, places in totals.items() if places > 0}


def _memo_key(tournament: Tournament, what: str, after_round, teams, moves) -> str:
    settings = sorted((tournament.settings or {}).items())
    digest = hashlib.sha1(
        repr(([(t[0], t[4]) for t in teams], sorted(moves.items()), settings)).encode()
    ).hexdigest()[:16]
    stamp = tournament.created_at.timestamp() if tournament.created_at else 0
    return (
        f"paisai:standings:{tournament.pk}:{stamp}:{revision(tournament)}:"
        f"{what}:{after_round}:{tournament.preset}:{digest}"
    )


def _memoised(key: str, compute):
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, MEMO_SECONDS)
    return value


def standings_for(tournament: Tournament, after_round: int | None = None) -> list[TeamStanding]:
    """The standings after round ``after_round`` (None: every counted round), best first.

    Every team of the event is listed, withdrawn and suspended ones too (see ``status``).
    """
    teams = _teams(tournament)
    moves = _moves(tournament)
    key = _memo_key(tournament, "rows", after_round, teams, moves)

    def compute() -> list[StandingRow]:
        return compute_standings(
            [team[0] for team in teams],
            outcomes_for(tournament, after_round),
            tournament.get_preset().standings_order,
            draw_lots={team[0]: team[4] for team in teams if team[4] is not None},
            moved_down=moves,
        )

    details = {team[0]: team for team in teams}
    return [
        TeamStanding(
            team=row.team,
            rank=row.rank,
            points=row.points,
            metrics=row.metrics,
            shared=row.shared,
            moved_down=row.moved_down,
            name=details[row.team][1],
            unit=details[row.team][2] or "",
            status=details[row.team][3],
        )
        for row in _memoised(key, compute)
    ]


def rank_history(tournament: Tournament) -> dict[int, list[int]]:
    """Each team's rank after each counted round, in round order: {team id: [rank, ...]}."""
    teams = _teams(tournament)
    key = _memo_key(tournament, "history", None, teams, {})

    def compute() -> dict[int, list[int]]:
        by_round = round_ranks(
            [team[0] for team in teams],
            outcomes_for(tournament),
            tournament.get_preset().standings_order,
            draw_lots={team[0]: team[4] for team in teams if team[4] is not None},
        )
        history: dict[int, list[int]] = {team[0]: [] for team in teams}
        for round_no in sorted(by_round):
            for team, rank in by_round[round_no].items():
                history[team].append(rank)
        return history

    return _memoised(key, compute)
