"""What the public sees: the current round, searchable pairings (of a section, of a hall's
range of tables), a team's history with its rank over the rounds, and the round clock for the
projector. Read-only; no login needed."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

from django.core.cache import cache
from django.db.models import F, Q
from django.utils import timezone

from rules_engine import seating
from rules_engine.outcome import Outcome
from rules_engine.points import answer_number, to_points
from rules_engine.presets import bye_points
from tournaments import glossary
from tournaments.halls import Hall
from tournaments.models import (
    Event,
    LotDraw,
    RankingAdjustment,
    ResultVersion,
    Round,
    RoundSlot,
    Team,
)
from tournaments.standings.service import outcomes_for, rank_history


def current_round(event: Event) -> Round | None:
    """The latest round whose pairing is public (drafts are not)."""
    return event.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()


def public_round(event: Event, number) -> Round | None:
    """A published round by number (from the URL), else the current one."""
    rounds = event.rounds.exclude(status=Round.Status.DRAFT)
    if number not in (None, "") and whole(number):
        found = rounds.filter(number=int(number)).first()
        if found is not None:
            return found
    return current_round(event)


def public_round_number(event: Event, number) -> int | None:
    """The number of :func:`public_round` ``(event, number)``, remembered for the
    event's revision (publishing a round bumps it): a public page served from the cache
    names its round's files without a query."""
    asked = str(number)[:6] if number not in (None, "") and whole(number) else ""
    key = f"paisai:public-round:{event.pk}:{asked}:r{event.revision}"
    found = cache.get(key)
    if found is None:
        rnd = public_round(event, asked)
        found = rnd.number if rnd is not None else 0
        cache.set(key, found, 24 * 3600)
    return found or None


def pairing_rows(
    rnd: Round,
    query: str = "",
    start: int = 0,
    stop: int | None = None,
    section=None,
    hall: Hall | None = None,
) -> list[dict]:
    """The round's tables (byes last), filtered by a part of a team name, by a section and
    by a hall's range of tables (a hall's screen); rows ``start:stop`` of them (a page)."""
    matches = _pairings(rnd, query, section, hall).select_related("home__unit", "away__unit")
    matches = list(matches[start:stop])
    counting = dict(
        ResultVersion.objects.filter(match__in=matches, is_counting=True).values_list(
            "match_id", "outcome"
        )
    )
    from tournaments.services.stage_standings import knockout_codes

    codes = knockout_codes(rnd) if rnd.stage_id else {}
    return [
        {
            "table": match.table_number,
            "label": glossary.knockout_match(codes.get(match.pk, "")),
            "home": match.home,
            "away": match.away,
            "search": f"{match.home.name} {match.away.name if match.away else ''}".lower(),
            "result": Outcome.from_answer(counting.get(match.pk)) if match.pk in counting else None,
        }
        for match in matches
    ]


def _pairings(rnd: Round, query: str = "", section=None, hall: Hall | None = None):
    matches = rnd.matches.order_by(F("table_number").asc(nulls_last=True), "home__name")
    if section is not None:
        matches = matches.filter(section=section)
    if hall is not None:  # a bye sits at no table: in no hall
        matches = matches.filter(table_number__range=(hall.first, hall.last))
    query = (query or "").strip()
    if query:
        named = Q(home__name__icontains=query) | Q(away__name__icontains=query)
        if whole(query) and len(query) < 7:  # a table number (the table card's QR asks so)
            named |= Q(table_number=int(query))
        matches = matches.filter(named)
    return matches


def pairing_count(rnd: Round, query: str = "", section=None, hall: Hall | None = None) -> int:
    return _pairings(rnd, query, section, hall).count()


def round_sections(rnd: Round | None) -> list:
    """The sections whose tables the round holds (a staged event's groups or halls), in the
    stage's order; none for an event without sections."""
    if rnd is None or rnd.stage_id is None:
        return []
    return list(rnd.stage.sections.filter(matches__round=rnd).distinct().order_by("order"))


def round_section(rnd: Round | None, value: object):
    """The section ``value`` (an id from the URL) among the round's, or None (every table)."""
    text = str(value or "").strip()
    if not whole(text):
        return None
    return next((s for s in round_sections(rnd) if s.pk == int(text)), None)


class HallScreen(NamedTuple):
    """A hall with a range of tables, and its number: its line among the event's halls, from
    1 (the ``?hall=`` of its projector screen and of the pairings API)."""

    number: int
    hall: Hall


def event_halls(event: Event) -> list[HallScreen]:
    """The event's halls that have a range of tables (a plain hall name has no screen)."""
    return [
        HallScreen(number, hall) for number, hall in enumerate(event.hall_list(), 1) if hall.usable
    ]


def event_hall(event: Event, value: object) -> HallScreen | None:
    """The hall ``value`` (its number from the URL) among the event's halls with a range, or
    None (every table)."""
    text = str(value or "").strip()
    if not whole(text):
        return None
    return next((s for s in event_halls(event) if s.number == int(text)), None)


@dataclass(frozen=True)
class Page:
    """Page ``number`` of ``pages`` (1-based) of ``count`` rows, ``size`` rows a page."""

    number: int
    pages: int
    count: int
    size: int

    @property
    def start(self) -> int:
        return (self.number - 1) * self.size

    @property
    def stop(self) -> int:
        return self.start + self.size

    @property
    def numbers(self) -> range:
        return range(1, self.pages + 1)

    def ranges(self) -> list[tuple[int, int, int]]:
        """(page, first row, last row) of every page, rows counted from 1."""
        return [(n, (n - 1) * self.size + 1, min(n * self.size, self.count)) for n in self.numbers]


def page_number(value) -> int:
    """A page number from the URL: a positive whole number, else 1."""
    text = str(value or "").strip()
    return int(text) if whole(text) and 0 < len(text) < 7 and int(text) > 0 else 1


def whole(value: object) -> bool:
    """A whole number written in ASCII digits ("²" and "١" are digits to ``str.isdigit``, and
    the first is no number to ``int``)."""
    text = str(value)
    return text.isascii() and text.isdigit()


def paginate(count: int, number, size: int) -> Page:
    pages = max(1, -(-count // size))
    return Page(min(page_number(number), pages), pages, count, size)


def team_history(team: Team) -> list[dict]:
    """Round by round: opponent, side, result, points and the rank after that round."""
    event = team.event
    slots = (
        RoundSlot.objects.filter(team=team)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round", "match__home", "match__away")
        .order_by("round__number")
    )
    counting = dict(
        ResultVersion.objects.filter(match__slots__team=team, is_counting=True).values_list(
            "match_id", "outcome"
        )
    )
    ranks = official_ranks_of(event, team.pk)
    bye = bye_points(event.get_preset())
    rows = []
    total = 0
    for slot in slots:
        match, side = slot.match, slot.side
        row = {
            "round": slot.round.number,
            "side": side,
            "rank": ranks.get(slot.round.number),
            "table": match.table_number,
            "levels": None,
            "forfeit": None,
            "penalty": None,
        }
        if match.is_bye:
            row.update(
                opponent=None, result="bye", points=answer_number(bye), side=None, table=None
            )
        else:
            row["opponent"] = match.away if seating.is_home(side) else match.home
            row.update(_side_result(counting.get(match.pk), side))
        total += to_points(row["points"] or 0)  # exact: 0.5 + 0.5 is 1
        row["total"] = answer_number(total) if row["points"] is not None else None
        rows.append(row)
    return rows


def _side_result(answer: dict | None, side: str) -> dict:
    """The side's result, points, level score ("K : 8", own level first), forfeit 弃权
    ("own": this side did not come, "other", "both") and penalty 判负 (a ruling's match loss,
    scored like a forfeit but never called one: "own", "other", "both")."""
    outcome = Outcome.from_answer(answer)
    other = seating.other_side(side)
    levels = f"{outcome.level(side)} : {outcome.level(other)}" if outcome.has_levels else None

    def whose(absent):
        if not absent:
            return None
        return "both" if absent == "both" else ("own" if absent == side else "other")

    penalty = whose(outcome.match_loss)
    forfeit = None if penalty else whose(outcome.forfeit)
    points = outcome.points(side)
    return {
        "result": outcome.result_for(side),
        "points": None if points is None else answer_number(points),  # 1, 0.5, -1 (exact)
        "levels": levels,
        "forfeit": forfeit,
        "penalty": penalty,
        # best of three: games won (2 : 1); national preset: 级差分, own first
        "games": f"{outcome.games(side)} : {outcome.games(other)}" if outcome.has_games else None,
        "level_points": _pair_text(outcome.level_points(side), outcome.level_points(other))
        if outcome.has_level_points
        else None,
    }


def _pair_text(own, other) -> str:
    def plain(value):
        return int(value) if isinstance(value, float) and value.is_integer() else value

    return f"{plain(own)} : {plain(other)}"


def official_ranks_of(event: Event, team: int) -> dict[int, int]:
    """{round: the team's place in the official ranking as it stood after that round}
    (services.stage_standings.official_standings: a knockout's rounds by its bracket, drawn
    lots and ranking adjustments applied, as every other page shows them)."""
    numbers = counted_round_numbers(event)
    plain = not (
        event.stages.exists()
        or RankingAdjustment.objects.filter(event=event).exists()
        or LotDraw.objects.filter(event=event).exists()
    )
    if plain:  # the same ranking, in one incremental pass
        return dict(zip(numbers, rank_history(event).get(team, []), strict=False))
    from tournaments.services import stage_standings

    ranks = {}
    for number in numbers:
        for row in stage_standings.official_standings(event, after_round=number):
            if row.team == team:
                ranks[number] = row.rank
    return ranks


def counted_round_numbers(event: Event) -> list[int]:
    """The rounds that have counted outcomes, in order (the rounds of ``rank_history``)."""
    return sorted({outcome.round_no for outcome in outcomes_for(event)})


def rank_chart(
    ranks: list[tuple[int, int]], teams: int, width: int = 400, height: int = 220
) -> dict:
    """Points of an SVG line chart of rank (1 at the top) over rounds. 400 units wide, drawn
    at most 400 px wide: a phone scales it by about 0.85, so its 15- and 16-unit labels stay
    above 12 px (the page's ``label_size``/``rank_size``)."""
    pad = 32
    if not ranks:
        return {"width": width, "height": height, "points": [], "polyline": ""}
    span_x = max(1, len(ranks) - 1)
    span_y = max(1, teams - 1)
    points = []
    for index, (round_no, rank) in enumerate(ranks):
        x = pad + (width - 2 * pad) * index / span_x
        y = pad + (height - 2 * pad) * (rank - 1) / span_y
        points.append({"x": round(x, 1), "y": round(y, 1), "round": round_no, "rank": rank})
    return {
        "width": width,
        "height": height,
        "label_size": 15,
        "rank_size": 16,
        "pad": pad,
        "bottom": height - pad,
        "right": width - pad,
        "teams": teams,
        "points": points,
        "polyline": " ".join(f"{p['x']},{p['y']}" for p in points),
    }


def clock(rnd: Round | None) -> dict:
    """The round clock for the projector: seconds left (None when not started or once the
    round is finalised, whose state says so)."""
    now = timezone.now()
    if rnd is None:
        return {
            "round": None,
            "status": None,
            "ends_at": None,
            "now": now.isoformat(),
            "remaining": None,
            "state": "",
            "text": clock_text(None),
        }
    remaining = None
    if rnd.ends_at is not None and rnd.status != Round.Status.FINALISED:
        remaining = max(0, int((rnd.ends_at - now).total_seconds()))
    state = ""
    if rnd.status == Round.Status.FINALISED:
        state = "finalised"  # the countdown stops: the round's results are locked
    elif remaining == 0:
        state = "over"
    elif remaining is not None and remaining <= warning_seconds(rnd.event):
        state = "warning"
    return {
        "round": rnd.number,
        "status": rnd.status,
        "ends_at": rnd.ends_at.isoformat() if rnd.ends_at else None,
        "now": now.isoformat(),
        "remaining": remaining,
        "state": state,
        "text": clock_text(remaining),
    }


def warning_seconds(event) -> int:
    """The last minutes of a round in which referees warn the tables (a preset setting)."""
    return event.get_preset().warning_minutes * 60


def clock_text(seconds: int | None) -> str:
    """59:30, or 1:02:05 past an hour; --:-- when the clock has not started."""
    if seconds is None:
        return "--:--"
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


# --- standings per stage and per section (SPEC §2 stages and sections) ---------------------


def standings_view(event, stage_id: object = "", section_id: object = ""):
    """``(rows, stage, section)``: the event's standings; a stage's (its ranking across its
    sections: the n-th of every section share a place); or one section's. An unknown stage
    or section is refused (StageNotFound naming it)."""
    from tournaments.services import stage_standings, stages

    if stage_id in (None, ""):
        return stage_standings.official_standings(event), None, None
    stage = stages.get_stage(event, stage_id)
    if section_id not in (None, ""):
        section = stages.get_section(stage, section_id)
        return stage_standings.section_rows(section), stage, section
    by_team = {
        row.team: row
        for section in stage.sections.all()
        for row in stage_standings.section_rows(section)
    }
    rows, place = [], 1
    for group in stage_standings.stage_groups(stage):
        for team in group:
            if team in by_team:
                rows.append(replace(by_team[team], rank=place, shared=len(group) > 1))
        place += len(group)
    return rows, stage, None
