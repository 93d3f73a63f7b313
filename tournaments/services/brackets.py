"""A knockout stage's brackets as the public sees them (SPEC §2: public bracket page and PDF).

The bracket itself is the pure knockout module's (``tournaments.pairing.knockout``: seeded
1 v N, byes to the top seeds, round names as message keys); the winners are the counting
results' (``stage_standings.knockout_winners``). Here each place of the bracket gets what a
page or the PDF shows: the two teams with their seeds, the table and round it is played in,
the score the rules engine answered, and which side went through.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules_engine.outcome import Outcome
from tournaments.models import Match, ResultVersion, Section, Stage, Team
from tournaments.pairing.knockout import BracketMatch
from tournaments.pairing.messages import render
from tournaments.services import stage_standings
from tournaments.services.stages import StageNotFound, get_stage

THIRD_PLACE = "knockout.third_place"


@dataclass
class Side:
    team: int | None  # None: not known yet (the match before is undecided)
    name: str = ""
    unit: str = ""
    seed: int | None = None
    won: bool = False


@dataclass
class Place:
    """One match of the bracket."""

    slot: str  # "R1-3", "3P"
    home: Side
    away: Side | None  # None: a bye (the home side goes through)
    table: int | None = None
    round: int | None = None  # the event's round number it is played in
    score: str = ""  # the engine's answer: the levels (or match points) EW : NS
    decided: bool = False
    # the winner's word: 晋级 (through) in a round before the final; the final's winner is
    # the champion (冠军), the third-place match's takes third place (季军), never 晋级
    outcome: str = "through"

    @property
    def is_bye(self) -> bool:
        return self.away is None


@dataclass
class Column:
    name: str  # "决赛", "Round of 16" … in the active language
    places: list[Place] = field(default_factory=list)


@dataclass
class SectionBracket:
    section: Section
    columns: list[Column]
    third_place: Place | None
    champion: Side | None


def knockout_stage(event, stage_id) -> Stage:
    """The event's knockout stage ``stage_id``; StageNotFound otherwise."""
    stage = get_stage(event, stage_id)
    if not stage.is_knockout:
        raise StageNotFound(_not_knockout(), "stage")
    return stage


def _not_knockout():
    from django.utils.translation import gettext_lazy as _

    return _("This stage is not a knockout: it has no bracket.")


def knockout_stages(event) -> list[Stage]:
    return list(Stage.objects.filter(event=event, kind=Stage.Kind.KNOCKOUT))


def stage_brackets(stage: Stage) -> list[SectionBracket]:
    """Every section's bracket of a knockout stage, in section order (a section with fewer
    than two teams has none yet)."""
    brackets = []
    for section in stage.sections.order_by("order"):
        if section.entries.count() >= 2:
            brackets.append(section_bracket(section))
    return brackets


def section_bracket(section: Section) -> SectionBracket:
    bracket = stage_standings.bracket_of(section)
    winners = stage_standings.knockout_winners(section)
    sides = bracket.sides(winners)
    seeds = {team: index + 1 for index, team in enumerate(bracket.entrants)}
    teams = {
        pk: (name, unit or "")
        for pk, name, unit in Team.objects.filter(pk__in=bracket.entrants).values_list(
            "pk", "name", "unit__name"
        )
    }
    played = _played(section)

    def place(match: BracketMatch) -> Place:
        home, away = sides[match.id]
        winner = winners.get(match.id)
        table, number, score = played.get(match.id, (None, None, ""))

        def side(team):
            name, unit = teams.get(team, ("", ""))
            return Side(
                team, name, unit, seeds.get(team), won=winner is not None and team == winner
            )

        return Place(
            match.id,
            side(home),
            None if match.is_bye else side(away),
            table,
            number,
            score,
            decided=winner is not None,
        )

    columns = [
        Column(render(rnd.name, {"size": rnd.size}), [place(m) for m in rnd.matches])
        for rnd in bracket.rounds
    ]
    third = place(bracket.third_place) if bracket.third_place else None
    if third is not None:
        third.outcome = "third"
    final = columns[-1].places[0]
    if len(columns[-1].places) == 1:
        final.outcome = "champion"
    champion = next((s for s in (final.home, final.away) if s is not None and s.won), None)
    return SectionBracket(section, columns, third, champion)


def third_place_name() -> str:
    return render(THIRD_PLACE)


def _played(section: Section) -> dict[str, tuple[int | None, int, str]]:
    """Bracket place -> (table, round number, score) of the section's drawn matches."""
    matches = {
        pk: (slot, table, number)
        for pk, slot, table, number in Match.objects.filter(section=section)
        .exclude(bracket_slot="")
        .values_list("pk", "bracket_slot", "table_number", "round__number")
    }
    scores = dict(
        ResultVersion.objects.filter(match_id__in=matches, is_counting=True).values_list(
            "match_id", "outcome"
        )
    )
    found = {}
    for pk, (slot, table, number) in matches.items():
        found[slot] = (table, number, score_text(scores.get(pk)))
    return found


def score_text(answer: dict | None) -> str:
    """The score of a counting answer: the games won (best of three), the levels reached
    (guandan, tractor), else the match points; "" while nothing counts."""
    if not answer:
        return ""
    if Outcome.from_answer(answer).points_ew is None:
        return ""  # a void counts as not played
    games = answer.get("games_won")
    if isinstance(games, dict):  # best of three: the games won
        return f"{games.get('EW', 0)} : {games.get('NS', 0)}"
    levels = answer.get("levels")
    if isinstance(levels, dict) and levels.get("EW") is not None:
        return f"{levels['EW']} : {levels['NS']}"
    points = answer.get("match_points") or {}
    return f"{points.get('EW', '')} : {points.get('NS', '')}"
