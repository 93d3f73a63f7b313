"""Drawing the rounds of a stage, section by section (SPEC §2 "stages and sections").

One round of a stage holds the tables of every section (one clock; table numbers run on
from one section to the next, in section order). Each section is paired apart:

- Swiss: the pure pairing (``tournaments.pairing``) over the section's teams only, with
  their points in the stage (or carried) and their history in the whole event (no rematch
  across stages either); the stage's first round is a draw from a recorded seed when the
  stage is fed by all teams and starts from 0, else paired by seed;
- round robin: the Berger tables of the section (``pairing.roundrobin.berger_rounds``),
  a bye a round for an odd field;
- knockout: the bracket seeded 1 v N from the section's seed order
  (``pairing.knockout.knockout_bracket``): byes to the top seeds in the first round, each
  later round from the winners of the one before (``stage_standings.knockout_winners``),
  the third-place match from the semi-final losers. When a knockout round is finalised the
  next is drafted at once (:func:`after_finalise`).

A knockout match must produce a winner: its results are scored with the stage's knockout
format (the engine plays extra deals at equal levels) and a result the engine does not call
over with a winner is refused (:func:`require_winner`). Rules stay in the engine.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournaments import permissions
from tournaments.errors import Code, ServiceError
from tournaments.models import Event, Match, Round, RoundSlot, Section, Stage, Team
from tournaments.pairing import PairingError, PairingTeam, draw_first_round, pair_round
from tournaments.pairing.core import AWAY, FLAG_REMATCH, HOME
from tournaments.pairing.roundrobin import berger_rounds
from tournaments.pairing.service import History, left_out, load_history, slots_for
from tournaments.services import stage_sections, stage_standings, stages
from tournaments.services.audit import log_action
from tournaments.services.round_basics import (
    MAX_SEED,
    RoundError,
    RoundForbidden,
    check_seed,
    pairing_failed,
)
from tournaments.services.stage_standings import current_stage  # noqa: F401 - callers read it here


@dataclass
class Table:
    home: int
    away: int | None  # None: a bye
    section: int
    flags: list[str] = field(default_factory=list)
    slot: str = ""


# --- which round ----------------------------------------------------------------------------


def next_round(stage: Stage) -> tuple[int, int, Round | None]:
    """(event round number, round of the stage, the draft being redrawn or None)."""
    event = stage.event
    latest = event.rounds.order_by("-number").first()
    done = Round.objects.filter(stage=stage).count()
    if latest is not None and latest.status == Round.Status.DRAFT:
        if latest.stage_id != stage.pk:
            raise RoundError(
                _("Round %(number)s is a draft of another stage: publish or redraw it there."),
                number=latest.number,
            )
        return latest.number, done, latest
    if latest is not None and latest.status != Round.Status.FINALISED:
        raise RoundError(
            _(
                "Round %(number)s is not finalised yet: the next round can be drafted once its "
                "results are finalised."
            ),
            None,
            Code.CONFLICT,
            number=latest.number,
        )
    for earlier in stages.previous_stages(stage):
        if not stage_standings.is_complete(earlier):
            raise RoundError(
                _("The stage %(stage)s is not finished yet."), "stage", stage=earlier.name
            )
    if latest is not None and latest.stage_id is not None and latest.stage.order > stage.order:
        raise RoundError(
            _("A later stage has started: %(stage)s is over."), "stage", stage=stage.name
        )
    return (latest.number if latest else 0) + 1, done + 1, None


# --- pairing each section -------------------------------------------------------------------


def pairing_teams(stage: Stage, section: Section, number: int, first: bool) -> list[PairingTeam]:
    """The section's teams as the Swiss pairing sees them before event round ``number``."""
    event = stage.event
    ids = stages.section_teams(section)
    status = dict(Team.objects.filter(pk__in=ids).values_list("pk", "status"))
    units = dict(Team.objects.filter(pk__in=ids).values_list("pk", "unit_id"))
    out = left_out(event, number)
    history = load_history(event, number)
    place = {team: (index, 0.0) for index, team in enumerate(ids)}
    if not first or stage.carry_points:
        rows = stage_standings.section_standings(section)
        # the pairing's score groups: exact points as floats (the same sum, the same float)
        place = {row.team: (index, float(row.points)) for index, row in enumerate(rows)}
    teams = []
    for team in ids:
        record = history.get(team, History())
        sides = tuple(side for _, side in sorted(record.sides))
        index, points = place.get(team, (len(ids), 0.0))
        teams.append(
            PairingTeam(
                id=team,
                score=points,
                rank=index,
                unit=None if units.get(team) is None else str(units[team]),
                opponents=frozenset(record.opponents),
                home_count=sides.count(HOME),
                away_count=sides.count(AWAY),
                recent_sides=sides,
                had_bye=record.had_bye,
                active=status.get(team) == Team.Status.ACTIVE and team not in out,
            )
        )
    return teams


def by_lot(stage: Stage, index: int) -> bool:
    """The stage's round ``index`` is a draw by lot: the first round of a Swiss stage that
    all teams enter from 0 (a stage of qualifiers, or one carrying points, pairs by seed)."""
    return (
        index == 1
        and stage.kind == Stage.Kind.SWISS
        and stage.entrants == Stage.Entrants.ALL
        and not stage.carry_points
    )


def swiss_tables(stage, section, number, index, seed) -> tuple[list[Table], list[int]]:
    first = index == 1
    teams = pairing_teams(stage, section, number, first)
    avoid = stage.event.get_preset().avoid_same_unit
    drawn = sorted(team.id for team in teams if team.active)
    if len(drawn) < 2:
        return [], drawn
    try:
        if by_lot(stage, index):
            result = draw_first_round(teams, seed, avoid)
        else:
            after = max(0, stage_standings.planned_rounds(stage) - index)
            result = pair_round(teams, avoid, rounds_after=after)
    except PairingError as error:
        raise pairing_failed(stage.event, number, error) from None
    tables = [Table(p.home, p.away, section.pk, sorted(p.flags)) for p in result.pairings]
    if result.bye is not None:
        flags = [FLAG_REMATCH] if result.repeated_bye else []
        tables.append(Table(result.bye, None, section.pk, flags))
    return tables, drawn


def round_robin_tables(section, index) -> tuple[list[Table], list[int]]:
    ids = stages.section_teams(section)
    if len(ids) < 2:
        return [], []
    schedule = berger_rounds(ids)
    if index > len(schedule):
        return [], []
    rnd = schedule[index - 1]
    tables = [Table(home, away, section.pk) for home, away in rnd.tables]
    if rnd.bye is not None:
        tables.append(Table(rnd.bye, None, section.pk))
    return tables, sorted(ids)


def knockout_tables(section, index) -> tuple[list[Table], list[int]]:
    if section.entries.count() < 2:
        return [], []
    bracket = stage_standings.bracket_of(section)
    if index > len(bracket.rounds):
        return [], []
    sides = bracket.sides(stage_standings.knockout_winners(section))
    matches = list(bracket.rounds[index - 1].matches)
    if index == len(bracket.rounds) and bracket.third_place is not None:
        matches.append(bracket.third_place)
    tables = []
    for match in matches:
        home, away = sides[match.id]
        if home is None or (not match.is_bye and away is None):
            raise RoundError(
                _(
                    "%(section)s: the match before %(slot)s has no winner yet (a void or a "
                    "draw): the chief referee must correct its result."
                ),
                "stage",
                section=section.name,
                slot=match.id,
            )
        tables.append(Table(home, None if match.is_bye else away, section.pk, slot=match.id))
    return tables, sorted({t for table in tables for t in (table.home, table.away) if t})


def section_tables(stage, section, number, index, seed):
    if stage.kind == Stage.Kind.SWISS:
        return swiss_tables(stage, section, number, index, seed)
    if stage.kind == Stage.Kind.ROUND_ROBIN:
        return round_robin_tables(section, index)
    return knockout_tables(section, index)


# --- drawing --------------------------------------------------------------------------------


def draw_round(stage: Stage, user, seed=None, source: str = "") -> Round:
    """Draft the stage's next round (or draft its current draft again), every section."""
    permissions.require(user, stage.event, "round.draft", RoundForbidden)
    return _draw(stage, user, seed, source)


def _draw(stage: Stage, user, seed=None, source: str = "", auto: bool = False) -> Round:
    event = stage.event
    seed = check_seed(seed)
    with transaction.atomic():
        Event.objects.select_for_update(no_key=True).filter(pk=event.pk).first()
        number, index, draft = next_round(stage)
        if index == 1 and not stage.entries.exists():
            stage_sections.seed_stage(stage, user, source)
        planned = stage_standings.planned_rounds(stage)
        if index > planned:
            raise RoundError(
                _("All %(count)s rounds of the stage %(stage)s have been drawn."),
                count=planned,
                stage=stage.name,
            )
        first_draw = by_lot(stage, index)
        if first_draw and seed is None:
            seed = secrets.randbelow(MAX_SEED + 1)
        if seed is not None and not first_draw:
            raise RoundError(
                _("A draw seed applies to the first draw of a Swiss stage only."), "seed"
            )
        tables, drawn = [], []
        for section in stage.sections.order_by("order"):
            found, teams = section_tables(stage, section, number, index, seed)
            tables += found
            drawn += teams
        if not tables:
            raise RoundError(
                _("The stage %(stage)s has no teams to pair."), "stage", stage=stage.name
            )
        replaced = 0
        if draft is None:
            draft = Round.objects.create(event=event, number=number, stage=stage)
        else:
            replaced = draft.matches.count()
            draft.matches.all().delete()
        draft.draw_seed = seed
        draft.drawn_from = sorted(drawn)
        draft.save(update_fields=["draw_seed", "drawn_from"])
        write_tables(draft, tables)
        log_action(
            event,
            user,
            "round.redraft" if replaced else "round.draft",
            draft,
            data={
                "round": number,
                "stage": stage.pk,
                "stage_round": index,
                "seed": seed,
                "tables": sum(1 for t in tables if t.away),
                "byes": [t.home for t in tables if t.away is None],
                "replaced_matches": replaced,
                "auto": auto,
            },
            source=source,
        )
    return draft


def write_tables(rnd: Round, tables: list[Table]) -> list[Match]:
    """Store the tables: played ones numbered 1.. in section order, byes without a table."""
    matches, number = [], 0
    for table in tables:
        if table.away is not None:
            number += 1
        matches.append(
            Match(
                round=rnd,
                table_number=number if table.away is not None else None,
                home_id=table.home,
                away_id=table.away,
                flags=table.flags,
                section_id=table.section,
                bracket_slot=table.slot,
            )
        )
    matches = Match.objects.bulk_create(matches)
    RoundSlot.objects.bulk_create(slots_for(rnd, matches))
    return matches


def stale_field(rnd: Round) -> list[int]:
    """The field a stage's draft would be drawn from now (for ``rounds.stale_reason``): a
    Swiss section's active teams not left out; a round robin or a knockout keeps its field
    (a team that withdraws from it loses its matches by forfeit)."""
    stage = rnd.stage
    if stage.kind != Stage.Kind.SWISS:
        return list(rnd.drawn_from)
    index = Round.objects.filter(stage=stage, number__lte=rnd.number).count()
    found = []
    for section in stage.sections.order_by("order"):
        teams = pairing_teams(stage, section, rnd.number, index == 1)
        found += [team.id for team in teams if team.active]
    return sorted(found)


def after_finalise(rnd: Round, user) -> Round | None:
    """A knockout round is decided: draft the next one from its winners (logged as an
    automatic draft of the one who finalised). Nothing for other rounds."""
    stage = rnd.stage
    if stage is None or not stage.is_knockout:
        return None
    if Round.objects.filter(stage=stage).count() >= stage_standings.planned_rounds(stage):
        return None
    try:
        with transaction.atomic():  # a draw that cannot be made leaves the finalise alone
            return _draw(stage, user, auto=True)
    except ServiceError:
        return None  # e.g. a void match: the organiser draws by hand once it is corrected


# --- knockout results -----------------------------------------------------------------------


class NoWinner(ServiceError):
    """A knockout result without a winner (the engine does not call the match over): a
    refusal of the match as a whole (code ``match_not_over``), never of one deal."""

    code = Code.MATCH_NOT_OVER


def require_winner(match: Match, outcome: dict) -> None:
    """A knockout match must produce a winner (SPEC §2): refuse an answer of the engine that
    is not over with a winner; at equal levels the engine asks for one more deal."""
    if match.round.stage_id is None:
        return
    stage = match.round.stage
    if not stage.is_knockout:
        return
    if outcome.get("over", True) and outcome.get("winner") in ("EW", "NS"):
        return
    won = outcome.get("games_won")
    if isinstance(won, dict) and outcome.get("next") in ("game_2", "game_3"):
        # best of three: a game is over and the match is not (one game each: game 3), never
        # "the levels are equal" from the games' differences added up (issue 35)
        raise NoWinner(
            _(
                "A knockout match must produce a winner: the games stand at %(ew)s : %(ns)s, "
                "so game %(n)s is played. Enter game %(n)s."
            ),
            "record",
            ew=won.get("EW", 0),
            ns=won.get("NS", 0),
            n=outcome["next"][-1],
        )
    if isinstance(won, dict):
        raise NoWinner(
            _("A knockout match must produce a winner: the game in play is not over yet."),
            "record",
        )
    if outcome.get("level_difference") == 0 and outcome.get("levels"):
        raise NoWinner(
            _(
                "A knockout match must produce a winner: the levels are equal, so "
                "one more deal decides. Enter the extra deal."
            ),
            "record",
        )
    raise NoWinner(
        _("A knockout match must produce a winner: the match is not over yet."), "record"
    )
