"""What the exports show, read from the database into plain tables (no formatting).

A :class:`Table` is a title, typed columns and rows of plain values; the xlsx and PDF
writers lay out any table, so a 5,000-team benchmark can build one without a database.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import F
from django.utils.translation import gettext

from rules_engine.outcome import Outcome
from rules_engine.points import answer_number
from tournaments import glossary
from tournaments.models import Match, ResultVersion, Round, Team
from tournaments.rules_line import rules_line
from tournaments.services.stage_standings import official_standings
from tournaments.standings.service import metric_labels


@dataclass(frozen=True)
class Column:
    label: str
    width: float  # in characters (xlsx); the PDF scales widths to the page
    numeric: bool = False


@dataclass
class Table:
    title: str
    subtitle: str
    columns: list[Column]
    rows: list[tuple] = field(default_factory=list)
    sheet_name: str = ""
    note: str = ""  # under the title: the rules line of a standings table (tournaments.rules_line)


def clean_number(value):
    """Numbers as int when whole; not-finite values (a team without a lot) as blank; exact
    match points (Decimal) as 1, 0.5 or -1 (rules_engine.points), never 1.0 or 0.50."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return None
    if isinstance(value, Decimal):
        return answer_number(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def finished_round_numbers(event) -> list[int]:
    """Rounds whose results are in (complete or finalised), in order."""
    return list(
        event.rounds.filter(status__in=(Round.Status.COMPLETE, Round.Status.FINALISED)).values_list(
            "number", flat=True
        )
    )


def standings_rows(event, after_round: int | None = None):
    """The rows a standings export lists: the event's official ranking
    (services.stage_standings.official_standings), as it stood after ``after_round`` (a
    round's sheet: a knockout round's ranks by the bracket, not by summed points)."""
    return official_standings(event, after_round)


def status_text(row) -> str:
    """A standings row's status column: 未参赛 (no place), withdrawn or suspended, or blank."""
    if row.absent:
        return str(glossary.DID_NOT_TAKE_PART)
    return "" if row.active else str(Team.Status(row.status).label)


def standings_table(event, after_round: int | None = None) -> Table:
    labels = [item for item in metric_labels(event) if item[0] != "points"]
    columns = [
        Column(gettext("Rank"), 7, numeric=True),
        Column(gettext("Team"), 28),
        Column(gettext("Unit"), 24),
        Column(gettext("Points"), 9, numeric=True),
        *[Column(label, 12, numeric=True) for _key, label in labels],
        Column(gettext("Status"), 10),
    ]
    staged = event.stages.exists()
    if staged:  # the official ranking: the stage that placed each team beside its place
        columns.insert(3, Column(gettext("Placed by stage"), 14))
    rows = []
    for row in standings_rows(event, after_round):
        # a knockout's place is its bracket's: summed points beside it would contradict it
        # (place 8 with more points than place 7), so they are left blank
        figures = [row.points, *[row.metrics.get(key) for key, _label in labels]]
        rows.append(
            (
                row.rank,
                row.name,
                row.unit,
                *([row.stage] if staged else []),
                *[None if row.knockout or row.absent else clean_number(value) for value in figures],
                status_text(row),
            )
        )
    if after_round is None:
        title, sheet = gettext("Standings"), gettext("Final")
    else:
        title = gettext("Standings after round %(number)s") % {"number": after_round}
        sheet = gettext("Round %(number)s") % {"number": after_round}
    return Table(title, event.name, columns, rows, sheet_name=sheet, note=rules_line(event))


def _result_text(answer: dict | None) -> str:
    return Outcome.from_answer(answer).points_text


def pairings_table(rnd: Round) -> Table:
    matches = (
        Match.objects.filter(round=rnd)
        .select_related("home__unit", "away__unit")
        .order_by(F("table_number").asc(nulls_last=True), "home__name")
    )
    counting = dict(
        ResultVersion.objects.filter(match__round=rnd, is_counting=True).values_list(
            "match_id", "outcome"
        )
    )
    columns = [
        Column(gettext("Table"), 7, numeric=True),
        Column(gettext("East–West (home)"), 28),
        Column(gettext("Unit"), 20),
        Column(gettext("North–South (away)"), 28),
        Column(gettext("Unit"), 20),
        Column(gettext("Result"), 10),
    ]
    rows = []
    for match in matches:
        home, away = match.home, match.away
        rows.append(
            (
                match.table_number,
                home.name,
                home.unit.name if home.unit else "",
                away.name if away else glossary.word(glossary.RESULTS, "bye"),
                away.unit.name if away and away.unit else "",
                _result_text(counting.get(match.pk)),
            )
        )
    title = gettext("Pairings of round %(number)s") % {"number": rnd.number}
    return Table(
        title,
        rnd.event.name,
        columns,
        rows,
        sheet_name=gettext("Round %(number)s") % {"number": rnd.number},
    )


def unit_standings_table(event, after_round: int | None = None) -> Table:
    """The unit standings (best N teams of each unit) as a table."""
    from tournaments.services.units import team_names, unit_keys, unit_standings_for

    keys = unit_keys(event)
    labels = dict(metric_labels(event))
    columns = [
        Column(gettext("Rank"), 7, numeric=True),
        Column(gettext("Unit"), 24),
        Column(gettext("Points"), 9, numeric=True),
        *[Column(labels.get(key, key), 12, numeric=True) for key in keys],
        Column(gettext("Teams counted"), 40),
    ]
    names = team_names(event)
    rows = [
        (
            row.rank,
            row.unit,
            clean_number(row.points),
            *[clean_number(row.metrics.get(key)) for key in keys],
            gettext(", ").join(names.get(team, "") for team in row.teams),
        )
        for row in unit_standings_for(event, after_round)
    ]
    best = event.get_preset().unit_best_teams
    title = gettext("Unit standings")
    subtitle = gettext("%(event)s · best %(n)s teams of each unit") % {
        "event": event.name,
        "n": best,
    }
    return Table(title, subtitle, columns, rows, sheet_name=gettext("Units"))
