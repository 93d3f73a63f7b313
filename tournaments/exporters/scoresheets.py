"""Printable scoresheets: one A4 page per table of a round, with the event, round, table,
teams and seats, a grid for that game's deal records and signature lines.

Everything a round's sheets share (titles, labels, the grid, the signature lines) is drawn
once as a *background* page; each table's page holds only its own text (table number,
teams, units, players) at fixed places, written without a page layout (sheet_text.py), and
the background is stamped under every page (:func:`pdf.stamp_under`). Tables are rendered in chunks, so a background task can spread
them over worker processes and report progress chunk by chunk.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from rules_engine import format_fields
from tournaments import glossary
from tournaments.errors import ExportError
from tournaments.models import Match, Round

from . import pdf, sheet_text
from .base import PDF, ChunkedExporter, event_round

CSS = "scoresheet.css"
CHUNK_SIZE = 100

# The deal grid of each game: (label, width in mm); the widths add up to 180 mm.
GRIDS = {
    "guandan": (
        (glossary.DEAL, 12),
        (glossary.LEVEL_PLAYED, 22),
        (_("1st out"), 26),
        (_("2nd out"), 26),
        (_("3rd out"), 26),
        (_("Last"), 26),
        (_("EW level"), 21),
        (_("NS level"), 21),
    ),
    "tractor": (
        (glossary.DEAL, 12),
        (_("Dealer side"), 22),
        (glossary.LEVEL_PLAYED, 18),
        (_("Defenders' points"), 26),
        (_("Bottom points"), 24),
        (_("Multiplier"), 20),
        (_("Failed throws"), 28),
        (_("Levels after"), 30),
    ),
    "chengyu": (
        (glossary.DEAL, 12),
        (_("Trump"), 24),
        (_("Tricks EW"), 30),
        (_("Tricks NS"), 30),
        (_("Deal won by"), 34),
        (_("Penalties"), 50),
    ),
}
GRID_ROWS = {"guandan": 18, "tractor": 18, "chengyu": 6}


@dataclass(frozen=True)
class Side:
    team: str
    unit: str = ""
    players: tuple[str, str] = ("", "")


@dataclass(frozen=True)
class Sheet:
    table: int
    home: Side  # East–West
    away: Side  # North–South
    label: str = ""  # a knockout's 决赛 / 三四名决赛 (glossary.knockout_match)


@dataclass(frozen=True)
class SheetSet:
    """What the background shows: the same on every sheet of a round."""

    event: str
    round_no: int
    game: str
    venue: str = ""
    sheets: list[Sheet] = field(default_factory=list)
    games: int = 1  # 3: best of three, a grid per game (第1/2/3局)

    def header(self) -> dict:
        return {
            "event": self.event,
            "round_no": self.round_no,
            "game": self.game,
            "venue": self.venue,
            "games": self.games,
        }


def _side(team) -> Side:
    names = {player.seat_order: player.name for player in team.players.all()}
    return Side(
        team.name, team.unit.name if team.unit else "", (names.get(1, ""), names.get(2, ""))
    )


def load_sheets(rnd: Round, start: int = 0, stop: int | None = None) -> list[Sheet]:
    """The sheets of the round's tables (byes have none), by table number; a slice of them."""
    matches = (
        Match.objects.filter(round=rnd, away__isnull=False)
        .select_related("home__unit", "away__unit")
        .prefetch_related("home__players", "away__players")
        .order_by("table_number")[start:stop]
    )
    from tournaments.services.stage_standings import knockout_codes

    codes = knockout_codes(rnd) if rnd.stage_id else {}
    return [
        Sheet(
            match.table_number,
            _side(match.home),
            _side(match.away),
            glossary.knockout_match(codes.get(match.pk, "")),
        )
        for match in matches
    ]


def table_count(rnd: Round) -> int:
    return Match.objects.filter(round=rnd, away__isnull=False).count()


def round_games(rnd: Round) -> int:
    """The games of the round's matches (the engine's: several for best of three), by the
    stage's format, else the event's."""
    fmt = None
    if rnd.stage_id is not None:
        fmt = rnd.stage.engine_format()
    if fmt is None:
        fmt = rnd.event.get_preset().match_format or {}
    return format_fields.games_of(fmt)


def sheet_set(rnd: Round, sheets: list[Sheet] | None = None) -> SheetSet:
    event = rnd.event
    return SheetSet(
        event.name,
        rnd.number,
        event.game,
        event.venue,
        sheets or [],
        games=round_games(rnd),
    )


GAME_GRID_TOPS = (72, 123, 174)  # mm: a best-of-three sheet's three grids of 6 rows


def _grid(game: str, games: int = 1) -> dict:
    columns = GRIDS.get(game, GRIDS["guandan"])
    if games > 1:  # one grid per game, the game named in its first head (第1局)
        rows = range(1, GRID_ROWS.get(game, 18) // games + 1)
        return {
            "columns": columns,
            "rows": rows,
            "games": [
                (glossary.game_label(n), top) for n, top in enumerate(GAME_GRID_TOPS, start=1)
            ],
        }
    return {"columns": columns, "rows": range(1, GRID_ROWS.get(game, 18) + 1), "games": []}


def background_html(header: dict) -> str:
    """The page every sheet of the round shares, in the active language."""
    context = {
        **header,
        "grid": _grid(header["game"], header.get("games", 1)),
        "sheet_list": [None],
    }
    return render_to_string("pdf/scoresheet_background.html", context)


def background_pdf(header: dict) -> bytes:
    return pdf.html_to_pdf(background_html(header), CSS)


def fields_pdf(sheets: list[Sheet]) -> bytes:
    """One page per sheet holding only that table's own text (drawn without a page layout
    each: sheet_text.py)."""
    return sheet_text.render(sheets, CSS)


def plain_pdf(header: dict, sheets: list[Sheet]) -> bytes:
    """The same sheets as one ordinary document (every page drawn in full): for comparison."""
    context = {
        **header,
        "grid": _grid(header["game"], header.get("games", 1)),
        "sheet_list": sheets,
    }
    return pdf.template_to_pdf("pdf/scoresheet_plain.html", context, CSS)


def assemble(header: dict, parts: list[bytes]) -> bytes:
    return pdf.stamp_under(parts, background_pdf(header))


def chunks(sheets: list, size: int = CHUNK_SIZE) -> list[list]:
    return [sheets[i : i + size] for i in range(0, len(sheets), size)]


def render_sheet_set(sheet_set: SheetSet, progress=None) -> bytes:
    """Every sheet of the set as one PDF, chunk by chunk in this process (the background job
    spreads the chunks over the worker processes instead: exporters/exports.py)."""
    parts, done = [], 0
    for part in chunks(sheet_set.sheets):
        parts.append(fields_pdf(part))
        done += len(part)
        if progress:
            progress(done, len(sheet_set.sheets))
    return assemble(sheet_set.header(), parts)


class ScoresheetsPdf(ChunkedExporter):
    identifier = "scoresheets"
    extension = "pdf"
    content_type = PDF
    chunk_size = CHUNK_SIZE

    def clean(self, round=None) -> dict:  # noqa: A002 - the parameter's public name
        return {"round": event_round(self.event, round)}

    def name_parts(self) -> list[str]:
        return ["scoresheets", f"r{self.params['round'].number}"]

    def item_count(self) -> int:
        return table_count(self.params["round"])

    def check_items(self, count: int) -> None:
        if not count:
            raise ExportError(
                str(_("Round %(number)s has no tables to print."))
                % {"number": self.params["round"].number},
                "round",
            )

    def render_chunk(self, start: int, stop: int) -> bytes:
        return fields_pdf(load_sheets(self.params["round"], start, stop))

    def assemble(self, parts: list[bytes]) -> bytes:
        return assemble(sheet_set(self.params["round"]).header(), parts)
