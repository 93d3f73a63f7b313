"""The event file's rounds replayed on the pure cores: the teams as a pairing saw them before a
round, the re-run pairing, a result's score and outcome, the quality report.

The score of a result is the standings' view of the engine's answer, as paisai's standings
service reads it (tournaments.standings.service.match_outcome, which lives beside Django and
is therefore restated here; tests/paisai_check compares the two on every exported result).
"""

from __future__ import annotations

from dataclasses import replace

from rules_engine.outcome import Outcome
from rules_engine.presets import (
    bye_level_difference,
    bye_level_points,
    bye_points,
    forfeit_level_difference,
)
from rules_engine.seating import AWAY, HOME, by_side
from tournaments.pairing import PairingTeam, draw_first_round, pair_round
from tournaments.pairing.core import AWAY as PAIR_AWAY
from tournaments.pairing.core import HOME as PAIR_HOME
from tournaments.pairing.knockout import knockout_bracket
from tournaments.pairing.quality import round_quality
from tournaments.pairing.roundrobin import berger_rounds
from tournaments.standings.core import MatchOutcome, bye_outcome
from tournaments.standings.stages import rerank, rows_by_draws

WINNER_OF_SIDE = {HOME: "home", AWAY: "away"}
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
    "winner",
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
        # which team won, "home" or "away" (the wins tiebreak, 胜场数: a forfeit win counts);
        # None for a draw
        "winner": WINNER_OF_SIDE.get(outcome.winner),
    }


def outcome_of(round_no, home, away, scored, preset=None) -> MatchOutcome | None:
    """The standings core's outcome of a scored table, or of a bye (``away`` None)."""
    if away is None:  # the edition's bye, apart from a forfeit (SPEC 3.1)
        return bye_outcome(
            round_no,
            home,
            (bye_points(preset), 0),
            bye_level_difference(preset),
            bye_level_points(preset),
        )
    if scored is None:
        return None
    winner = {"home": home, "away": away}.get(scored.get("winner"))
    return MatchOutcome(round_no=round_no, home=home, away=away, **{**scored, "winner": winner})


def pairing_teams(data: dict, rnd: dict, played: list[dict], rows) -> dict[int, PairingTeam]:
    """Every team as the pairing saw it before ``rnd``: score and place from the standings
    ``rows`` after the round before, opponents, sides and byes from the rounds ``played``,
    active when in the round's recorded field (else: active and not on leave)."""
    number = rnd["number"]
    # the pairing's score groups: exact points as floats (as tournaments.pairing.service)
    place = {row.team: (index, float(row.points)) for index, row in enumerate(rows)}
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


def quality_of(data: dict, rnd: dict, before: dict[int, PairingTeam], rerun=None) -> dict:
    """The quality report of the round's tables, or of the re-run's (``rerun``: tables by
    number and the byes), with the organiser's reason if the round's rematches were
    confirmed."""
    confirmed = next(
        (
            c.get("reason")
            for c in data.get("confirmed_rematches", [])
            if c.get("round") == rnd["number"]
        ),
        None,
    )
    if rerun is None:
        tables = [(t["table"], t["home"], t["away"]) for t in rnd["tables"]]
        byes = rnd["byes"]
    else:
        tables = [(table, home, away) for table, (home, away) in rerun[0].items()]
        byes = rerun[1]
    return round_quality(tables, byes, before, confirmed)


def stage_winners(played: list[dict], stage_id: int, section_id: int, answers: dict) -> dict:
    """Bracket place -> the team that went through, in a knockout section's rounds so far:
    a bye's team, or the winner of the re-scored result (a void or a draw decides nothing)."""
    winners = {}
    for earlier in played:
        if earlier.get("stage") != stage_id:
            continue
        for bye in earlier.get("bye_slots", []):
            if bye.get("section") == section_id and bye.get("bracket_slot"):
                winners[bye["bracket_slot"]] = bye["team"]
        for table in earlier["tables"]:
            if table.get("section") != section_id or not table.get("bracket_slot"):
                continue
            answer = answers.get((earlier["number"], table["table"]))
            winner = Outcome.from_answer(answer).winner if answer is not None else None
            if winner is not None:
                winners[table["bracket_slot"]] = by_side(table["home"], table["away"])[winner]
    return winners


def section_rows(data, stage, played, ids, rank):
    """A section's standings before the next round of its stage: the stage's rounds so far
    (and the earlier stages' when it carries the points), ranked among the section's teams,
    ties a recorded draw of lots covers broken by it (tournaments.standings.stages)."""
    counted = {stage["id"]}
    if stage.get("carry_points"):
        counted |= {s["id"] for s in data["stages"] if s["order"] < stage["order"]}
    numbers = {r["number"] for r in played if r.get("stage") in counted}
    latest = max((r["number"] for r in played), default=0)
    rows, draws = rank(numbers, latest, stage.get("kind"))  # its kind's order (SPEC 3.1)
    return rows_by_draws(rerank(rows, set(ids)), draws)


def rerun_stage(data, preset, rnd, before, played, answers, rank):
    """The tables paisai's stage service draws for a stage round, section by section (table
    numbers running on in section order), and its byes: ``((tables, byes), None)``, or
    ``(None, why)`` when the round cannot be re-run (a knockout match before without a
    winner). ``rank(round numbers, after_round)`` gives the standings over those rounds'
    recomputed results (no ranking adjustments) and the draws of lots that apply."""
    stage = next(s for s in data["stages"] if s["id"] == rnd["stage"])
    index = 1 + sum(1 for r in played if r.get("stage") == stage["id"])
    tables, byes = [], []
    for section in sorted(stage["sections"], key=lambda s: s.get("order", 0)):
        ids = [entry["team"] for entry in sorted(section["teams"], key=lambda e: e["seed"])]
        if len(ids) < 2:
            continue
        if stage["kind"] == "round_robin":
            schedule = berger_rounds(ids)
            if index <= len(schedule):
                tables += list(schedule[index - 1].tables)
                byes += [] if schedule[index - 1].bye is None else [schedule[index - 1].bye]
        elif stage["kind"] == "knockout":
            bracket = knockout_bracket(ids, third_place=bool(stage.get("third_place")))
            if index > len(bracket.rounds):
                continue
            sides = bracket.sides(stage_winners(played, stage["id"], section["id"], answers))
            matches = list(bracket.rounds[index - 1].matches)
            if index == len(bracket.rounds) and bracket.third_place is not None:
                matches.append(bracket.third_place)
            for match in matches:
                home, away = sides[match.id]
                if home is None or (not match.is_bye and away is None):
                    return None, f"{section['name']}: the match before {match.id} has no winner"
                if match.is_bye:
                    byes.append(home)
                else:
                    tables.append((home, away))
        elif index == 1 and stage.get("entrants") == "all" and not stage.get("carry_points"):
            teams = [replace(before[team], score=0, rank=place) for place, team in enumerate(ids)]
            drawn = draw_first_round(teams, rnd["draw_seed"], preset.avoid_same_unit)
            tables += [(p.home, p.away) for p in drawn.pairings]
            byes += [] if drawn.bye is None else [drawn.bye]
        else:
            place = {team: (position, 0.0) for position, team in enumerate(ids)}
            if index > 1 or stage.get("carry_points"):
                rows = section_rows(data, stage, played, ids, rank)
                place = {
                    row.team: (position, float(row.points)) for position, row in enumerate(rows)
                }
            teams = [
                replace(before[team], score=place[team][1], rank=place[team][0], seed=None)
                for team in ids
            ]
            after = max(0, int(stage.get("num_rounds") or 0) - index)
            paired = pair_round(teams, preset.avoid_same_unit, rounds_after=after)
            tables += [(p.home, p.away) for p in paired.pairings]
            byes += [] if paired.bye is None else [paired.bye]
    numbered = dict(enumerate(tables, start=1))
    return (numbered, sorted(byes)), None


def official_order(rows, draws, absent: set[int]) -> list[tuple[int, int | None]]:
    """An event without stages: its official ranking as (team, place), best first: the final
    standings with the ties a recorded draw of lots covers broken by it, the teams that did
    not take part taken out of the places (the others numbered again, ties kept) and listed
    after them without one (tournaments.services.stage_standings.apart, restated)."""
    rows = rows_by_draws(rows, draws)
    kept = [row for row in rows if row.team not in absent]
    placed: list[tuple[int, int]] = []
    for index, row in enumerate(kept):
        previous = kept[index - 1] if index else None
        tied = previous is not None and previous.rank == row.rank and row.shared
        placed.append((row.team, placed[-1][1] if tied else index + 1))
    return placed + [(row.team, None) for row in rows if row.team in absent]
