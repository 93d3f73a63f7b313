"""What the organiser prints before a round: table cards (桌签), team badges with their QR,
and the QR sheet of every table's private link (officials only).

All three are :class:`ChunkedExporter`\\ s: many like items, rendered in chunks over the
worker processes and concatenated. Each page is drawn straight into the PDF (sheet_text.py):
the text at fixed places in fonts embedded once a chunk, a QR code as filled rectangles of
its modules, the cut lines as strokes. A single WeasyPrint document laid out every badge
as a flex item with an SVG QR in one growing flex container, and its time grew faster than
the number of badges (500 badges 302 s); drawn this way each item costs the same whatever
the number.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.models import Round, TableKey

from . import pdf, sheet_text
from .base import PDF, ChunkedExporter, ExportError, round_number
from .qr import public_url, qr_matrix
from .sheet_text import MM, Box, Page, Style

CSS = "printables.css"
A4 = (210 * MM, 297 * MM)
A5_LANDSCAPE = (210 * MM, 148 * MM)

# the A4 grid of badges and QR cards: 2 × 5 cells of 90 × 55 mm, 2 mm apart, centred
CELL_W, CELL_H, GAP, COLUMNS, ROWS = 90, 55, 2, 2, 5
PER_PAGE = COLUMNS * ROWS
LEFT = (210 - COLUMNS * CELL_W - (COLUMNS - 1) * GAP) / 2
TOP = (297 - ROWS * CELL_H - (ROWS - 1) * GAP) / 2
QR_SIZE = 30  # mm, in the cell's top right corner (quiet zone included)

NAME, BODY, SMALL, URL = Style(15, True), Style(10, False), Style(8, False, 0.3), Style(6, False, 0.33)
TABLE_BIG = Style(28, True)


def qr_drawing(url: str, left: float, top: float, size: float, page_h: float) -> str:
    """PDF operators filling the dark modules of the QR of ``url`` (mm from the top left)."""
    matrix = qr_matrix(url)
    module = size * MM / len(matrix)
    x0, y0 = left * MM, page_h - top * MM
    ops = []
    for r, row in enumerate(matrix):
        y = y0 - (r + 1) * module
        c, n = 0, len(row)
        while c < n:
            if row[c]:
                start = c
                while c < n and row[c]:
                    c += 1
                ops.append(f"{x0 + start * module:.2f} {y:.2f} {(c - start) * module:.2f} "
                           f"{module:.2f} re")  # fmt: skip
            else:
                c += 1
    return "0 g\n" + "\n".join(ops) + "\nf"


def cell_origin(slot: int) -> tuple[float, float]:
    return LEFT + (slot % COLUMNS) * (CELL_W + GAP), TOP + (slot // COLUMNS) * (CELL_H + GAP)


def cut_lines(slots: int, page_h: float) -> str:
    """Dashed outlines of the page's used cells."""
    ops = ["q [3 2] 0 d 0.5 w 0.53 G"]
    for slot in range(slots):
        x, y = cell_origin(slot)
        ops.append(f"{x * MM:.2f} {page_h - (y + CELL_H) * MM:.2f} {CELL_W * MM:.2f} "
                   f"{CELL_H * MM:.2f} re S")  # fmt: skip
    ops.append("Q")
    return "\n".join(ops)


def grid_pages(cards: list[tuple[list[tuple[Box, str]], str]]) -> list[Page]:
    """Cards of (lines relative to the cell's top left, QR url) laid 10 to an A4 page."""
    width, height = A4
    pages = []
    for first in range(0, len(cards), PER_PAGE):
        block = cards[first : first + PER_PAGE]
        lines, drawing = [], [cut_lines(len(block), height)]
        for slot, (card_lines, url) in enumerate(block):
            x, y = cell_origin(slot)
            for box, text in card_lines:
                moved = Box(x + box.left, y + box.top, box.width, box.height, box.style, box.align)
                lines.append((moved, text))
            if url:
                drawing.append(qr_drawing(url, x + CELL_W - QR_SIZE - 1, y + 1, QR_SIZE, height))
        pages.append(Page(lines, width, height, "\n".join(drawing)))
    return pages


class GridExporter(ChunkedExporter):
    """Cards on an A4 grid; a chunk is whole pages."""

    extension = "pdf"
    content_type = PDF
    chunk_size = 20 * PER_PAGE

    def cards(self, start: int, stop: int) -> list[tuple[list[tuple[Box, str]], str]]:
        raise NotImplementedError

    def render_chunk(self, start: int, stop: int) -> bytes:
        return sheet_text.render_pages(grid_pages(self.cards(start, stop)), CSS)

    def assemble(self, parts: list[bytes]) -> bytes:
        return pdf.concatenate(parts)


class TableCardsPdf(ChunkedExporter):
    """One card a table of a round (A5 landscape): the table number, large, and the teams."""

    identifier = "table-cards-pdf"
    extension = "pdf"
    content_type = PDF

    def clean(self, round=None) -> dict:  # noqa: A002 - the URL parameter's name
        number = round_number(round)
        found = Round.objects.filter(tournament=self.tournament, number=number).first()
        if found is None:
            raise ExportError(_("Round %(number)s does not exist.") % {"number": number}, "round")
        return {"round": found}

    def name_parts(self) -> list[str]:
        return ["table-cards", f"r{self.params['round'].number}"]

    def matches(self):
        return self.params["round"].matches.exclude(away=None)

    def item_count(self) -> int:
        return self.matches().count()

    def check_items(self, count: int) -> None:
        if not count:
            raise ExportError(
                _("Round %(number)s has no tables to print.")
                % {"number": self.params["round"].number},
                "round",
            )

    def render_chunk(self, start: int, stop: int) -> bytes:
        rnd = self.params["round"]
        width, height = A5_LANDSCAPE
        event = f"{self.tournament.name} · {_('Round %(n)s') % {'n': rnd.number}}"
        sides = (_("East–West"), _("North–South"))
        grey = Style(10, False, 0.27)
        pages = []
        matches = self.matches().select_related("home", "away").order_by("table_number", "pk")
        for match in matches[start:stop]:
            lines = [
                (Box(10, 10, 190, 8, Style(12, False, 0.27), "center"), event),
                (Box(10, 24, 190, 40, Style(96, True), "center"),
                 _("Table %(n)s") % {"n": match.table_number}),
                (Box(10, 72, 190, 10, Style(18, False), "center"), match.home.name),
                (Box(10, 82, 190, 6, grey, "center"), f"（{sides[0]}）"),
                (Box(10, 96, 190, 10, Style(18, False), "center"), match.away.name),
                (Box(10, 106, 190, 6, grey, "center"), f"（{sides[1]}）"),
            ]  # fmt: skip
            pages.append(Page(lines, width, height))
        return sheet_text.render_pages(pages, CSS)

    def assemble(self, parts: list[bytes]) -> bytes:
        return pdf.concatenate(parts)


class TeamBadgesPdf(GridExporter):
    """A badge per active team: name, unit, players and a QR that opens its check-in."""

    identifier = "team-badges-pdf"

    def teams(self):
        return self.tournament.teams.filter(status="active")

    def item_count(self) -> int:
        return self.teams().count()

    def check_items(self, count: int) -> None:
        if not count:
            raise ExportError(_("There are no active teams to print badges for."))

    def cards(self, start: int, stop: int):
        slug = self.tournament.slug
        teams = self.teams().select_related("unit").prefetch_related("players")
        cards = []
        for team in teams.order_by("unit__name", "pk")[start:stop]:
            url = public_url(f"/t/{slug}/manage/checkin/team/{team.pk}/")
            players = " · ".join(p.name for p in team.players.all())
            lines = [
                (Box(3, 3, 54, 9, NAME), team.name),
                (Box(3, 13, 54, 6, BODY), team.unit.name if team.unit else ""),
                (Box(3, 20, 54, 6, BODY), players),
                (Box(3, 36, 84, 5, SMALL), self.tournament.name),
                (Box(3, 47, 84, 4, URL), url),
            ]
            cards.append((lines, url))
        return cards


class TableLinksPdf(GridExporter):
    """The QR sheet: every table's live private link, to cut out and lay on the tables."""

    identifier = "table-links-pdf"

    def keys(self):
        return TableKey.objects.filter(tournament=self.tournament, revoked_at__isnull=True)

    def item_count(self) -> int:
        return self.keys().count()

    def check_items(self, count: int) -> None:
        if not count:
            raise ExportError(_("No table has a live link yet: issue the links first."))

    def cards(self, start: int, stop: int):
        cards = []
        for key in self.keys().order_by("table_number", "pk")[start:stop]:
            url = public_url(f"/table/{key.key}/")
            lines = [
                (Box(3, 3, 54, 13, TABLE_BIG), _("Table %(n)s") % {"n": key.table_number}),
                (Box(3, 18, 54, 6, BODY), self.tournament.name),
                (Box(3, 47, 84, 4, URL), url),
            ]
            cards.append((lines, url))
        return cards
