"""Standings per section and per stage, knockout brackets, and the event's final ranking.

The database side of ``tournaments.standings.stages``: what counts in a section is every
counted match of the stage's rounds (and of the earlier stages' when the stage carries the
points), ranked by the preset's standings order through the same pure core as the event's
standings (``tournaments.standings.core.compute_standings``). A knockout ranks by its
bracket (:func:`knockout_groups`); the winners are read from the counting results (the
rules engine's ``winner``; a bye goes through).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules_engine import seating
from rules_engine.outcome import Outcome
from tournaments.models import (
    CheckIn,
    Event,
    Match,
    ResultVersion,
    Round,
    RoundSlot,
    Section,
    Stage,
    Team,
)
from tournaments.pairing.knockout import Bracket, knockout_bracket, knockout_groups
from tournaments.pairing.roundrobin import berger_rounds
from tournaments.standings.core import StandingRow, compute_standings
from tournaments.standings.service import (
    TeamStanding,
    outcomes_for,
    recorded_draws,
    standings_for,
)
from tournaments.standings.stages import (
    FinalPlace,
    final_ranking,
    rerank,
    rows_by_draws,
)


def stage_rounds(stage: Stage):
    return Round.objects.filter(stage=stage).order_by("number")


def counted_rounds(stage: Stage, after_round: int | None = None) -> set[int]:
    """Round numbers whose results count in the stage's standings (up to ``after_round``)."""
    stages = [stage]
    if stage.carry_points:
        stages += list(Stage.objects.filter(event=stage.event_id, order__lt=stage.order))
    rounds = Round.objects.filter(stage__in=stages).exclude(status=Round.Status.DRAFT)
    if after_round is not None:
        rounds = rounds.filter(number__lte=after_round)
    return set(rounds.values_list("number", flat=True))


def entries(section: Section) -> list[int]:
    return list(section.entries.order_by("seed").values_list("team_id", flat=True))


def section_standings(section: Section, after_round: int | None = None) -> list[StandingRow]:
    """The section's teams ranked by the edition's order for the stage's kind (Swiss, round
    robin, knockout: ``stage_standings_orders``, else ``standings_order``) over the stage's
    counted rounds
    (those up to ``after_round``: the section's standings then)."""
    stage = section.stage
    event = stage.event
    teams = list(Team.objects.filter(event=event).values_list("pk", "draw_lot"))
    numbers = counted_rounds(stage, after_round)
    outcomes = [o for o in outcomes_for(event) if o.round_no in numbers]
    draws = recorded_draws(event, after_round)
    rows = compute_standings(
        [pk for pk, _ in teams],
        outcomes,
        event.get_preset().standings_order_for(stage.kind),  # its kind's order (SPEC 3.1)
        draw_lots={pk: lot for pk, lot in teams if lot is not None},
        draws=draws,
    )
    # a tie at a cut line is decided by a recorded draw of lots (services.lots), whatever
    # the preset's standings order
    return rows_by_draws(rerank(rows, set(entries(section))), draws)


def section_rows(section: Section) -> list[TeamStanding]:
    """:func:`section_standings` with each team's name, unit and status (as the event's
    standings rows), for pages, exports and the API."""
    rows = section_standings(section)
    teams = Team.objects.filter(pk__in=[row.team for row in rows])
    details = {
        pk: (name, unit or "", status)
        for pk, name, unit, status in teams.values_list("pk", "name", "unit__name", "status")
    }
    return [TeamStanding.of(row, *details[row.team]) for row in rows]


def bracket_of(section: Section) -> Bracket:
    """The knockout bracket of a section, its entrants in seed order."""
    return knockout_bracket(entries(section), third_place=section.stage.third_place)


def knockout_winners(section: Section, after_round: int | None = None) -> dict[str, int]:
    """Bracket place -> winning team for the section's decided knockout matches (a bye's
    team goes through; a counting result's winner side; a void or a draw decides nothing);
    with ``after_round``, only those of the rounds up to it."""
    matches = Match.objects.filter(section=section).exclude(bracket_slot="")
    if after_round is not None:
        matches = matches.filter(round__number__lte=after_round)
    winners: dict[str, int] = {}
    sides = {}
    for pk, slot, home, away in matches.values_list("pk", "bracket_slot", "home_id", "away_id"):
        if away is None:
            winners[slot] = home
        else:
            sides[pk] = (slot, home, away)
    versions = ResultVersion.objects.filter(match_id__in=sides, is_counting=True)
    for match_id, answer in versions.values_list("match_id", "outcome"):
        slot, home, away = sides[match_id]
        winner = Outcome.from_answer(answer).winner
        if winner is not None:
            winners[slot] = seating.by_side(home, away)[winner]
    return winners


def section_groups(section: Section, after_round: int | None = None) -> list[list[int]]:
    """The section's finishing groups, best first (a knockout by its bracket; otherwise
    one team a group, in standings order, tied teams sharing a group); with
    ``after_round``, as they stood after that round."""
    if section.stage.is_knockout:
        if not section.entries.exists():
            return []
        return knockout_groups(bracket_of(section), knockout_winners(section, after_round))
    groups: list[list[int]] = []
    last_rank = None
    for row in section_standings(section, after_round):
        if groups and row.rank == last_rank:
            groups[-1].append(row.team)
        else:
            groups.append([row.team])
        last_rank = row.rank
    return groups


def section_ranking(section: Section) -> list[int]:
    """The section's teams, best first."""
    return [team for group in section_groups(section) for team in group]


def stage_groups(stage: Stage, after_round: int | None = None) -> list[list[int]]:
    """The stage's finishing groups: with one section its own; with several, place by
    place across the sections (the n-th of every section share a place)."""
    sections = list(stage.sections.order_by("order"))
    if len(sections) == 1:
        return section_groups(sections[0], after_round)
    rankings = [
        [team for group in section_groups(section, after_round) for team in group]
        for section in sections
    ]
    longest = max((len(r) for r in rankings), default=0)
    return [[r[p] for r in rankings if p < len(r)] for p in range(longest)]


def stage_ranking(stage: Stage) -> list[int]:
    return [team for group in stage_groups(stage) for team in group]


def expected_sizes(stage: Stage) -> list[int]:
    """The sizes of the stage's sections: their entries once seeded; before, what will
    enter (the top ``qualify_top`` of each source section, or every registered entrant),
    spread over its sections."""
    sizes = [len(entries(section)) for section in stage.sections.all()]
    if any(sizes):
        return sizes
    if stage.entrants == Stage.Entrants.QUALIFIED:
        top = stage.qualify_top or 0
        total = sum(
            sum(min(top, len(entries(section)) or top) for section in source.sections.all())
            or top  # a source not seeded yet: one section
            for source in stage.sources.all()
        )
    else:
        total = len(registered_entrants(stage.event))
    parts = max(1, len(sizes))
    return [total // parts + (1 if index < total % parts else 0) for index in range(parts)]


def planned_rounds(stage: Stage) -> int:
    """How many rounds the stage plays: a Swiss its setting; a round robin the Berger
    tables of its biggest section; a knockout the rounds of its biggest bracket (before
    the stage is seeded, from the teams that will enter it)."""
    if stage.kind == Stage.Kind.SWISS:
        return stage.num_rounds or 0
    sizes = [size for size in expected_sizes(stage) if size >= 2]
    if not sizes:
        return 0
    if stage.kind == Stage.Kind.ROUND_ROBIN:
        return max(len(berger_rounds(range(size))) for size in sizes)
    return max(len(knockout_bracket(range(size)).rounds) for size in sizes)


@dataclass(frozen=True)
class RoundCount:
    stage: str  # "" for an event without stages
    done: int  # rounds drawn
    planned: int


def round_counts(event: Event) -> list[RoundCount]:
    """Rounds drawn / planned, per stage (an event without stages: its setting), for the
    status and stage pages: never the rounds of every stage against the event's setting."""
    found = list(event.stages.order_by("order"))
    if not found:
        return [RoundCount("", event.rounds.count(), event.num_rounds or 0)]
    return [
        RoundCount(stage.name, stage_rounds(stage).count(), planned_rounds(stage))
        for stage in found
    ]


def is_complete(stage: Stage) -> bool:
    """Every planned round of the stage is drawn and finalised."""
    rounds = list(stage_rounds(stage).values_list("status", flat=True))
    planned = planned_rounds(stage)
    return (
        planned > 0
        and len(rounds) >= planned
        and all(status == Round.Status.FINALISED for status in rounds)
    )


@dataclass(frozen=True)
class RankedTeam:
    rank: int | None  # None: 未参赛, listed apart without a place
    team: int
    name: str
    stage: str
    section: str
    shared: bool = False
    # the place comes from a knockout's bracket: points and tiebreaks do not decide it
    knockout: bool = False
    absent: bool = False  # 未参赛: never checked in, played no match (no place)


def absent_teams(event: Event) -> set[int]:
    """The registered teams that did not take part (未参赛, SPEC §2): in an event that checks
    teams in, those never checked in that have played no match (no place in a published
    round, a bye included). They are listed apart, without a place, on every ranking."""
    if not CheckIn.objects.filter(team__event=event).exists():
        return set()
    never = set(Team.objects.filter(event=event, checkin__isnull=True).values_list("pk", flat=True))
    if not never:
        return never
    played = RoundSlot.objects.filter(team_id__in=never).exclude(round__status=Round.Status.DRAFT)
    return never - set(played.values_list("team_id", flat=True))


def apart(rows: list, absent: set[int]) -> list:
    """``rows`` (best first, with places) with the teams of ``absent`` taken out of the
    places (the others numbered again, ties kept) and listed after them, without a place
    (``rank`` None, ``absent`` True)."""
    if not absent:
        return rows
    kept = [row for row in rows if row.team not in absent]
    out = []
    for index, row in enumerate(kept):
        previous = kept[index - 1] if index else None
        tied = previous is not None and previous.rank == row.rank and row.shared
        out.append(replace(row, rank=out[-1].rank if tied else index + 1))
    ranks = [row.rank for row in out]
    out = [replace(row, shared=ranks.count(row.rank) > 1) for row in out]
    return out + [
        replace(row, rank=None, shared=False, absent=True) for row in rows if row.team in absent
    ]


def ranked_stages(event: Event, after_round: int | None = None) -> list[Stage]:
    """The stages that place teams in the official ranking: every stage of the event; after
    round ``after_round``, those that had played a round by then."""
    stages = list(event.stages.order_by("order"))
    if after_round is None:
        return stages
    played = set(
        Round.objects.filter(event=event, stage__isnull=False, number__lte=after_round)
        .exclude(status=Round.Status.DRAFT)
        .values_list("stage_id", flat=True)
    )
    return [stage for stage in stages if stage.pk in played]


def event_ranking(event: Event, after_round: int | None = None) -> list[RankedTeam]:
    """The event's official final ranking: the one answer every page, export, API answer,
    prize list and certificate reads (through this function or :func:`official_standings`).
    With ``after_round``: the same ranking as it stood after that round (the knockout's
    rounds up to it; a stage not started by then places nobody).

    Without stages: its standings. With stages: the last stage's places first (a knockout:
    winner, runner-up, third-place match, then the losers of each earlier round), the places
    its matches cannot separate ranked by the earlier stage's ranking or shared, as the
    event setting ``knockout_places`` says; then the teams that went no further by the
    ranking of the stage they left; last, any team that entered no stage, by the event's
    standings (stage "")."""
    if not event.stages.exists():
        return [
            RankedTeam(row.rank, row.team, row.name, "", "", row.shared, absent=row.absent)
            for row in official_standings(event, after_round)
        ]
    stages = ranked_stages(event, after_round)
    names = dict(Team.objects.filter(event=event).values_list("pk", "name"))
    section_of: dict[tuple[int, int], str] = {}
    for stage in stages:
        for team, name in stage.entries.values_list("team_id", "section__name"):
            section_of[(stage.pk, team)] = name
    by_pk = {stage.pk: stage for stage in stages}
    places: list[FinalPlace] = final_ranking(
        [(stage.pk, stage_groups(stage, after_round)) for stage in stages],
        event.get_preset().knockout_places,
        recorded_draws(event, after_round),
    )
    ranked = [
        RankedTeam(
            place.rank,
            place.team,
            names.get(place.team, ""),
            by_pk[place.stage].name,
            section_of.get((place.stage, place.team), ""),
            place.shared,
            knockout=by_pk[place.stage].is_knockout,
        )
        for place in places
    ]
    placed = {row.team for row in ranked}
    rest = [row for row in standings_for(event, after_round) if row.team not in placed]
    start = len(ranked)
    for index, row in enumerate(rest):
        previous = rest[index - 1] if index else None
        tied = previous is not None and previous.rank == row.rank and row.shared
        rank = ranked[-1].rank if tied else start + index + 1
        ranked.append(RankedTeam(rank, row.team, row.name, "", "", tied or row.shared))
    return apart(ranked, absent_teams(event))


def official_standings(event: Event, after_round: int | None = None) -> list[TeamStanding]:
    """The event's standings rows (points and every tiebreak, name, unit, status) in the
    order and with the places of :func:`event_ranking`, each row's ``stage`` naming the
    stage whose ranking placed the team (``knockout`` when a knockout's bracket did). Every
    ranking shown reads it: the organiser's and the public standings pages, the standings
    API, every xlsx sheet, the standings PDF, the prize list and the certificates. With
    ``after_round``: the ranking as it stood after that round. The teams that did not take
    part (:func:`absent_teams`, 未参赛) come last, ``rank`` None and ``absent`` True."""
    rows = standings_for(event, after_round=after_round)
    if not event.stages.exists():
        return apart(rows_by_draws(rows, recorded_draws(event, after_round)), absent_teams(event))
    by_team = {row.team: row for row in rows}
    return [
        replace(
            by_team[place.team],
            rank=place.rank,
            shared=place.shared,
            stage=place.stage,
            knockout=place.knockout,
            absent=place.absent,
        )
        for place in event_ranking(event, after_round)
        if place.team in by_team
    ]


def knockout_codes(rnd: Round) -> dict[int, str]:
    """{match id: "final" | "third_place" | "semi_final"} for a knockout round's matches
    (glossary.knockout_match names them): the third-place match by its bracket place; the
    final the one match of its bracket round in its section; a semi-final one of two."""
    if rnd.stage_id is None:
        return {}
    rows = list(
        Match.objects.filter(round=rnd)
        .exclude(bracket_slot="")
        .values_list("pk", "section_id", "bracket_slot")
    )
    per_round: dict[tuple, int] = {}
    for _pk, section, slot in rows:
        if slot.startswith("R"):
            key = (section, slot.split("-")[0])
            per_round[key] = per_round.get(key, 0) + 1
    codes = {}
    for pk, section, slot in rows:
        if slot == "3P":
            codes[pk] = "third_place"
        elif slot.startswith("R"):
            size = per_round[(section, slot.split("-")[0])]
            codes[pk] = {1: "final", 2: "semi_final"}.get(size, "")
    return {pk: code for pk, code in codes.items() if code}


# --- which stage, which teams (the stage services build on these) ------------------------------


def current_stage(event: Event) -> Stage | None:
    """The stage whose round is drawn next: the one with a draft, else the first that is not
    complete (None when every stage is done)."""
    draft = event.rounds.filter(status=Round.Status.DRAFT, stage__isnull=False).first()
    if draft is not None:
        return draft.stage
    for stage in event.stages.order_by("order"):
        if not is_complete(stage):
            return stage
    return None


def registered_entrants(event: Event) -> list[int]:
    """Every active team that may play (checked in, once the event uses check-in), best seed
    first (teams without a seed after the seeded ones, in registration order)."""
    teams = Team.objects.filter(event=event, status=Team.Status.ACTIVE)
    if CheckIn.objects.filter(team__event=event).exists():
        teams = teams.filter(checkin__isnull=False)
    rows = teams.values_list("pk", "seed")
    return [pk for pk, seed in sorted(rows, key=lambda row: (row[1] is None, row[1] or 0, row[0]))]
