"""Standings from the database: load stored results, rank with the pure core, memoise.

What counts
    Every match whose round is no longer a draft, through the *counting* ResultVersion
    of the match (its ``outcome`` is the rules engine's answer, by side; the home team's
    side is rules_engine.seating.side_of). A match without a counting version does not
    count yet. A bye (a match with no away team)
    counts as the preset's forfeit win for its team as soon as its round is published.

Caching (how a results confirm stays cheap)
    Confirming a result must not recompute standings. Each tournament has a revision number
    in the database (``Tournament.revision``: the sum of its ``EventRevision`` counters),
    bumped by :func:`invalidate` in the same transaction as every change of what the public
    sees, so a cache can never hold an answer newer than its key or serve one older than the
    database, whatever happened to Redis.
    Standings are computed on read and memoised under (tournament, revision, after_round,
    the teams' ids/statuses/draw lots, the active ranking adjustments). The bumps:

    - saves of a counting result version, a round, a match, a team, a player, a unit, a
      ranking adjustment or the event itself (``tournaments.signals``);
    - the services that change rows with ``update()``/``bulk_*`` call :func:`invalidate`
      inside their transaction (round completed, swaps, imports);
    - a transaction that changes several matches (a ruling and its escalation, an appeal)
      runs in :func:`revision_batch`: one bump, as its last statement, so a revision counter
      is always locked after the match rows (no deadlock against a confirmation).

    Team names, units and statuses are read fresh on every call (one small query). The
    memo lives in Django's cache (Redis in production, shared by every worker); a cache
    outage only costs recomputation (config/cache.py).
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections import defaultdict
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import FloatField, IntegerField, Q
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext

from rules_engine.outcome import PARTS, Outcome
from rules_engine.presets import bye_points, forfeit_level_difference, level_points
from rules_engine.seating import AWAY, HOME
from tournaments.models import (
    EventRevision,
    LotDraw,
    Match,
    RankingAdjustment,
    ResultVersion,
    Round,
    Team,
    Tournament,
)
from tournaments.models.events import REVISION_SHARDS

from .core import MatchOutcome, StandingRow, bye_outcome, compute_standings, round_ranks
from .metrics import METRICS

MEMO_SECONDS = 3600


@dataclass(frozen=True)
class TeamStanding(StandingRow):
    """A standings row with the team's name, unit and status (withdrawn teams are flagged)."""

    name: str = ""
    unit: str = ""
    status: str = Team.Status.ACTIVE
    # the stage whose ranking placed the team in an event's official ranking ("" otherwise)
    stage: str = ""

    @property
    def active(self) -> bool:
        return self.status == Team.Status.ACTIVE

    @classmethod
    def of(cls, row: StandingRow, name: str, unit: str | None, status: str) -> TeamStanding:
        """The core's ``row`` with the team's name, unit and status."""
        return cls(team=row.team, rank=row.rank, points=row.points, metrics=row.metrics,
                   shared=row.shared, moved_down=row.moved_down, name=name, unit=unit or "",
                   status=status)  # fmt: skip


_batch: ContextVar[set | None] = ContextVar("paisai_revision_batch", default=None)


def _revision_bump(rows: str) -> str:
    """The one statement that bumps event revisions: ``rows`` are the VALUES
    ``(event id, shard, 1, time)``, as parameters or written out. A shard's row is made by
    its first bump (both PostgreSQL and SQLite take ON CONFLICT … DO UPDATE)."""
    table = EventRevision._meta.db_table
    return (
        f"INSERT INTO {table} (tournament_id, shard, bumps, at) VALUES {rows} "
        f"ON CONFLICT (tournament_id, shard) DO UPDATE SET bumps = {table}.bumps + 1, "
        "at = excluded.at"
    )


REVISION_SQL = _revision_bump("(%s, %s, 1, %s)")


def _shard() -> int:
    return random.randrange(REVISION_SHARDS)


def _transaction_shard() -> int:
    """The revision counter of the current transaction: chosen at random once, then the same
    for every bump until it commits (issue 31). A transaction holds a counter row locked until
    it commits; with a counter drawn for each saved row, two transactions saving several rows
    took two counters in opposite orders and deadlocked (53 of 200 concurrent event and team
    PATCHes). With one counter a transaction, the counters add no cycle of their own.

    The transaction is recognised by its on-commit list (Django makes a new one at every
    commit and rollback) or, after a savepoint's rollback made a new list, by its outermost
    atomic block: keeping the counter when unsure is always safe, drawing a second is not."""
    if not connection.in_atomic_block:
        return _shard()  # autocommit: the bump is its own transaction
    held = getattr(connection, "paisai_revision_shard", None)
    hooks, outermost = connection.run_on_commit, connection.atomic_blocks[0]
    if held is not None and (held[1] is hooks or held[2] is outermost):
        shard = held[0]
    else:
        shard = _shard()
    connection.paisai_revision_shard = (shard, hooks, outermost)
    return shard


def revision(tournament: Tournament | int) -> int:
    """The event's revision as the database holds it now (one query)."""
    return EventRevision.current(getattr(tournament, "pk", tournament))[0]


def invalidate(tournament: Tournament | int) -> None:
    """Bump the event's revision in the current transaction: every cached public answer and
    memoised standings of the event are then out of date (the next read recomputes). One
    UPDATE; inside :func:`revision_batch` nothing until the batch ends."""
    pk = getattr(tournament, "pk", tournament)
    pending = _batch.get()
    if pending is not None:
        pending.add(pk)
        return
    shard = _transaction_shard()
    with connection.cursor() as cursor:
        cursor.execute(REVISION_SQL, [pk, shard, timezone.now()])


@contextmanager
def revision_batch():
    """One transaction whose revision bumps happen once, as its last statement.

    On PostgreSQL, when the batch is the outermost transaction, the bump and the COMMIT go
    to the server together (:func:`_bump_and_commit`): the revision counter is locked only
    while the server commits. Sent apart, the row stayed locked while the thread waited to
    be scheduled again between the two round trips (the GIL, two CPUs), and every other
    result of the event queued behind it: at full speed a submission waited 5–35 ms on that
    row (pg_stat_statements), which capped the results API at 113–138/s. The lock also
    lasts through the commit's WAL flush (3.3 ms a flush on the bench machine, by
    pg_test_fsync), so one counter an event would cap it near 1/flush; the event has
    REVISION_SHARDS counters and each bump takes one at random."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        outer = _batch.get()
        pending: set = set()
        token = _batch.set(pending if outer is None else outer)
        try:
            yield
        finally:
            _batch.reset(token)
        if outer is None and pending:
            if outermost and connection.vendor == "postgresql" and not connection.needs_rollback:
                _bump_and_commit(sorted(pending))
            else:
                for pk in sorted(pending):
                    invalidate(pk)


def _bump_and_commit(pks: list[int]) -> None:
    """The bump ``…; COMMIT`` in one simple-protocol query (integers and a timestamp written
    out, no parameters; never prepared). Django's commit that follows finds the transaction
    committed and sends nothing (psycopg skips COMMIT on an idle connection); its on-commit
    hooks run as usual. A failed COMMIT raises here, inside the block: nothing is committed."""
    when = timezone.now().isoformat()
    shard = _transaction_shard()
    rows = ", ".join(f"({int(pk)}, {shard}, 1, '{when}'::timestamptz)" for pk in pks)
    sql = _revision_bump(rows) + "; COMMIT"
    started = time.monotonic()
    with connection.wrap_database_errors, connection.connection.cursor() as cursor:
        cursor.execute(sql, prepare=False)  # Django's errors, as from its own cursor
    if connection.queries_logged:  # seen by the debug toolbar and CaptureQueriesContext
        took = time.monotonic() - started
        connection.queries_log.append({"sql": sql, "time": f"{took:.3f}"})


def metric_labels(tournament: Tournament) -> list[tuple[str, str]]:
    """(key, label in the active language) of each metric in the preset's order."""
    return [(key, gettext(METRICS[key].label)) for key in tournament.get_preset().standings_order]


def shown_metrics(row: StandingRow) -> dict[str, float | None]:
    """The row's metric values for display: None where a team has none (no drawing lot)."""
    return {
        key: None if isinstance(value, float) and math.isinf(value) else value
        for key, value in row.metrics.items()
    }


# --- loading outcomes ---------------------------------------------------------------------


# The values of the rules engine's answer that standings read, fetched as plain SQL values
# (not the whole JSON with its long trace); where they sit in the answer is the engine's
# (rules_engine.outcome.PARTS). name -> SQL type (None: text).
FETCHED_PARTS = {
    "points_ew": FloatField(),
    "points_ns": FloatField(),
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
    )


def outcomes_for(tournament: Tournament, up_to_round: int | None = None) -> list[MatchOutcome]:
    """Every counted match outcome of the event (two queries, whatever the size)."""
    rounds = _counted_rounds(tournament, up_to_round)
    preset = tournament.get_preset()
    win = bye_points(preset)
    forfeit_diff = forfeit_level_difference(preset)
    bye_level_points = (level_points(preset, {"forfeit": AWAY}) or {HOME: 0})[HOME]
    byes = Match.objects.filter(round__in=rounds, away__isnull=True)
    outcomes = [
        bye_outcome(round_no, home, (win, 0), forfeit_diff, bye_level_points)
        for round_no, home in byes.values_list("round__number", "home_id")
    ]
    for round_no, home, away, *values in counting_parts(rounds):
        if away is not None:
            parts = Outcome.from_parts(dict(zip(FETCHED_PARTS, values, strict=True)))
            outcome = match_outcome(round_no, home, away, parts, forfeit_diff)
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


def _draws(tournament: Tournament, after_round: int | None = None) -> list[tuple[int, ...]]:
    """The recorded draws of lots (oldest first) that apply to the standings after round
    ``after_round`` (None: the latest): those drawn after that round or an earlier one."""
    rows = LotDraw.objects.filter(tournament=tournament).order_by("drawn_at", "pk")
    if after_round is not None:
        rows = rows.filter(Q(after_round__isnull=True) | Q(after_round__lte=after_round))
    return [tuple(order) for order in rows.values_list("order", flat=True)]


def recorded_draws(tournament: Tournament, after_round: int | None = None):
    """The recorded draws of lots that apply after ``after_round`` (stage standings)."""
    return _draws(tournament, after_round)


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
            draws=_draws(tournament, after_round),
        )

    details = {team[0]: team for team in teams}
    return [TeamStanding.of(row, *details[row.team][1:4]) for row in _memoised(key, compute)]


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
            draws=_draws(tournament),
        )
        history: dict[int, list[int]] = {team[0]: [] for team in teams}
        for round_no in sorted(by_round):
            for team, rank in by_round[round_no].items():
                history[team].append(rank)
        return history

    return _memoised(key, compute)
