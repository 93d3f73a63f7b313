"""The database side of pairing: load `PairingTeam` values, write `Match` rows.

A thin shell around the pure core: `load_pairing_teams` reads the standings and the
history of earlier rounds in a few queries, the core pairs, and `write_pairing`
stores the tables with bulk inserts. The round workflow (who may do what, when, and
the audit log) lives in `tournaments.services.rounds`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from rules_engine import seating
from tournaments.models import CheckIn, Event, Match, Round, RoundLeave, RoundSlot, Team
from tournaments.standings.service import standings_for

from .core import (
    AWAY,
    FLAG_FLOATED,
    FLAG_HOME_TWICE,
    FLAG_REMATCH,
    FLAG_SAME_UNIT,
    HOME,
    PairingResult,
    PairingTeam,
)
from .sides import home_streak
from .tables import floats, group_sizes

SIDE_OF_SLOT = seating.by_side(HOME, AWAY)  # a slot's side → the pairing's home/away


@dataclass
class History:
    """What earlier rounds say about one team."""

    opponents: set[int] = field(default_factory=set)
    sides: list[tuple[int, str]] = field(default_factory=list)  # (round number, "H"/"A")
    had_bye: bool = False


def load_history(event: Event, before_round: int) -> dict[int, History]:
    """Opponents, sides and byes of every team in the rounds before `before_round` (one query)."""
    history: dict[int, History] = defaultdict(History)
    slots = (
        RoundSlot.objects.filter(round__event=event, round__number__lt=before_round)
        .exclude(round__status=Round.Status.DRAFT)
        .values_list("team_id", "round__number", "side", "match__home_id", "match__away_id")
    )
    for team, round_no, side, home, away in slots:
        record = history[team]
        if away is None:
            record.had_bye = True
            continue
        record.opponents.add(away if team == home else home)
        record.sides.append((round_no, SIDE_OF_SLOT[side]))
    return history


def rematch_tables(rnd: Round) -> list[Match]:
    """The tables (and a second bye) of a round that repeat an earlier meeting."""
    return [
        match
        for match in Match.objects.filter(round=rnd).order_by("table_number")
        if FLAG_REMATCH in (match.flags or [])
    ]


def left_out(event: Event, round_number: int) -> set[int]:
    """Active teams the draw of ``round_number`` leaves out (SPEC §2): those on a leave to
    miss that round and, once the event uses check-in, those not checked in (a team that
    checks in after round 1 is a late entry: it joins from the next draw)."""
    out = set(
        RoundLeave.objects.filter(
            team__event=event,
            round_number=round_number,
            kind=RoundLeave.Kind.MISS_ROUND,
        ).values_list("team_id", flat=True)
    )
    checked_in = set(CheckIn.objects.filter(team__event=event).values_list("team_id", flat=True))
    if checked_in:
        out |= set(event.teams.values_list("pk", flat=True)) - checked_in
    return out


def draw_field(teams: list[PairingTeam]) -> list[int]:
    """The teams a pairing is drawn from (its field), as stored with a draft."""
    return sorted(team.id for team in teams if team.active)


def load_pairing_teams(
    event: Event, before_round: int, with_leaves: bool = True
) -> list[PairingTeam]:
    """Every team as the pairing sees it before round `before_round`.

    Score and place come from the standings after the previous round; withdrawn and
    suspended teams, and teams left out of this round (:func:`left_out`), are passed as
    inactive (the core leaves them out). ``with_leaves=False`` reads no leave or check-in
    (who is left out does not matter to a drawn round's quality report, and a public page
    reads only the public models, whose writes move the event's revision).
    """
    out = left_out(event, before_round) if with_leaves else set()
    registered = Team.objects.filter(event=event).order_by("pk")
    rows = standings_for(event, after_round=before_round - 1) if before_round > 1 else []
    # the pairing's score groups: exact points as floats (the same sum, the same float)
    place = {row.team: (index, float(row.points)) for index, row in enumerate(rows)}
    history = load_history(event, before_round) if before_round > 1 else {}
    teams = []
    for team_id, status, unit, seed in registered.values_list("id", "status", "unit_id", "seed"):
        index, points = place.get(team_id, (0, 0))
        record = history.get(team_id, History())
        sides = tuple(side for _, side in sorted(record.sides))
        teams.append(
            PairingTeam(
                id=team_id,
                score=points,
                rank=index,
                unit=None if unit is None else str(unit),
                opponents=frozenset(record.opponents),
                home_count=sides.count(HOME),
                away_count=sides.count(AWAY),
                recent_sides=sides,
                had_bye=record.had_bye,
                active=status == Team.Status.ACTIVE and team_id not in out,
                seed=seed,
            )
        )
    return teams


def write_pairing(rnd: Round, result: PairingResult) -> list[Match]:
    """Store the pairings (and the bye) of `rnd` as Match and RoundSlot rows, in bulk."""
    matches = [
        Match(
            round=rnd,
            table_number=pairing.table,
            home_id=pairing.home,
            away_id=pairing.away,
            flags=sorted(pairing.flags),
        )
        for pairing in result.pairings
    ]
    if result.bye is not None:
        flags = [FLAG_REMATCH] if result.repeated_bye else []
        matches.append(
            Match(round=rnd, table_number=None, home_id=result.bye, away_id=None, flags=flags)
        )
    matches = Match.objects.bulk_create(matches)
    RoundSlot.objects.bulk_create(slots_for(rnd, matches))
    return matches


def slots_for(rnd: Round, matches: list[Match]) -> list[RoundSlot]:
    slots = []
    for match in matches:
        home, away = seating.side_of(home=True), seating.side_of(home=False)
        slots.append(RoundSlot(round=rnd, match=match, team_id=match.home_id, side=home))
        if match.away_id is not None:
            slots.append(RoundSlot(round=rnd, match=match, team_id=match.away_id, side=away))
    return slots


def flags_for(home: PairingTeam, away: PairingTeam, field: list[PairingTeam]) -> list[str]:
    """The flags of a table set by hand (as the core flags its own tables); `field` is
    every team, whose active ones make the score groups."""
    flags = {FLAG_HOME_TWICE} if home_streak(home) else set()
    if floats(home, away, group_sizes(team for team in field if team.active)):
        flags.add(FLAG_FLOATED)
    if away.id in home.opponents:
        flags.add(FLAG_REMATCH)
    if home.unit is not None and home.unit == away.unit:
        flags.add(FLAG_SAME_UNIT)
    return sorted(flags)
