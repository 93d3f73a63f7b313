"""The event file's rounds replayed on the pure cores: the teams as a pairing saw them before a
round, the re-run pairing, a result's score and outcome, the quality report.

The score of a result is the standings' view of the engine's answer, as paisai's standings
service reads it (tournaments.standings.service.match_outcome, which lives beside Django and
is therefore restated here; tests/paisai_check compares the two on every exported result).
"""

from __future__ import annotations

from rules_engine.outcome import Outcome
from rules_engine.presets import bye_points, forfeit_level_difference, level_points
from rules_engine.seating import AWAY, HOME
from tournaments.pairing import PairingTeam, draw_first_round, pair_round
from tournaments.pairing.core import AWAY as PAIR_AWAY
from tournaments.pairing.core import HOME as PAIR_HOME
from tournaments.pairing.quality import round_quality
from tournaments.standings.core import MatchOutcome, bye_outcome

SCORE_FIELDS = (
    "home_points",
    "away_points",
    "home_level_diff",
    "home_deals_won",
    "away_deals_won",
    "home_tricks",
    "away_tricks",
    "home_acc_levels",
    "away_acc_levels",
    "forfeit",
    "home_level_points",
    "away_level_points",
)
ACTIVE = "active"
MISS_ROUND = "miss_round"


def score_of(round_no: int, home: int, away: int, answer: dict, preset) -> dict | None:
    """What the engine's ``answer`` gives the home and the away team (None: no match points,
    e.g. a voided match). A forfeit has no levels: it counts the preset's forfeit level
    difference for the side that played, minus it for the other."""
    outcome = Outcome.from_answer(answer)
    if not outcome.counts:
        return None
    diff = outcome.difference_for(HOME)
    if outcome.forfeit in (HOME, AWAY):
        forfeit_diff = forfeit_level_difference(preset)
        diff = forfeit_diff if outcome.forfeit == AWAY else -forfeit_diff
    return {
        "home_points": outcome.points(HOME),
        "away_points": outcome.points(AWAY),
        "home_level_diff": diff,
        "home_deals_won": outcome.deals(HOME),
        "away_deals_won": outcome.deals(AWAY),
        "home_tricks": outcome.tricks(HOME),
        "away_tricks": outcome.tricks(AWAY),
        "home_acc_levels": outcome.accumulated_levels(HOME),
        "away_acc_levels": outcome.accumulated_levels(AWAY),
        "forfeit": bool(outcome.forfeit),
        "home_level_points": outcome.level_points(HOME),
        "away_level_points": outcome.level_points(AWAY),
    }


def outcome_of(round_no, home, away, scored, preset=None) -> MatchOutcome | None:
    """The standings core's outcome of a scored table, or of a bye (``away`` None)."""
    if away is None:
        bye_level = (level_points(preset, {"forfeit": AWAY}) or {HOME: 0})[HOME]
        return bye_outcome(
            round_no, home, (bye_points(preset), 0), forfeit_level_difference(preset), bye_level
        )
    if scored is None:
        return None
    return MatchOutcome(round_no=round_no, home=home, away=away, **scored)


def pairing_teams(data: dict, rnd: dict, played: list[dict], rows) -> dict[int, PairingTeam]:
    """Every team as the pairing saw it before ``rnd``: score and place from the standings
    ``rows`` after the round before, opponents, sides and byes from the rounds ``played``,
    active when in the round's recorded field (else: active and not on leave)."""
    number = rnd["number"]
    place = {row.team: (index, row.points) for index, row in enumerate(rows)}
    opponents: dict[int, set[int]] = {}
    sides: dict[int, list[str]] = {}
    byes: set[int] = set()
    for earlier in played:
        for table in earlier["tables"]:
            home, away = table["home"], table["away"]
            opponents.setdefault(home, set()).add(away)
            opponents.setdefault(away, set()).add(home)
            sides.setdefault(home, []).append(PAIR_HOME)
            sides.setdefault(away, []).append(PAIR_AWAY)
        byes.update(earlier["byes"])
    field = rnd.get("field")
    if field is not None:
        active = set(field)
    else:
        away_teams = {
            leave["team"]
            for leave in data.get("leaves", [])
            if leave.get("round") == number and leave.get("kind") == MISS_ROUND
        }
        active = {
            team["id"]
            for team in data["teams"]
            if team.get("status", ACTIVE) == ACTIVE and team["id"] not in away_teams
        }
    teams = {}
    for team in sorted(data["teams"], key=lambda t: t["id"]):
        ident = team["id"]
        index, points = place.get(ident, (0, 0))
        recent = tuple(sides.get(ident, ()))
        teams[ident] = PairingTeam(
            id=ident,
            score=points,
            rank=index,
            unit=None if team.get("unit") is None else str(team["unit"]),
            opponents=frozenset(opponents.get(ident, ())),
            home_count=recent.count(PAIR_HOME),
            away_count=recent.count(PAIR_AWAY),
            recent_sides=recent,
            had_bye=ident in byes,
            active=ident in active,
            seed=team.get("seed"),
        )
    return teams


def rerun_pairing(data: dict, preset, rnd: dict, before: dict[int, PairingTeam]):
    """The pairing paisai's round service draws for ``rnd`` from the same teams: round 1 from
    its seed, a later round by Swiss from the standings (keeping the rounds still to come
    pairable, as the service does)."""
    teams = list(before.values())
    number = rnd["number"]
    if number == 1:
        return draw_first_round(
            teams, rnd["draw_seed"], preset.avoid_same_unit, method=preset.round_one_method
        )
    rounds_after = max(0, int(data["event"]["num_rounds"]) - number)
    return pair_round(teams, preset.avoid_same_unit, rounds_after=rounds_after)


def quality_of(rnd: dict, before: dict[int, PairingTeam], pairings=None, bye=None) -> dict:
    """The quality report of the round's tables (or of ``pairings`` and ``bye``)."""
    if pairings is None:
        tables = [(t["table"], t["home"], t["away"]) for t in rnd["tables"]]
        byes = rnd["byes"]
    else:
        tables = [(p.table, p.home, p.away) for p in pairings]
        byes = [bye] if bye is not None else []
    return round_quality(tables, byes, before)
