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

from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.errors import ExportError
from tournaments.models import TableKey

from . import pdf, sheet_text
from .base import PDF, ChunkedExporter, event_round
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

NAME, BODY, SMALL, URL = (
    Style(15, True),
    Style(10, False),
    Style(8, False, 0.3),
    Style(6, False, 0.33),
)
TABLE_BIG = Style(28, True)


def qr_drawing(url: str, left: float, top: float, size: float, page_h: float) -> str:
    """PDF operators filling the dark modules of the QR of ``url`` (mm from the top left):
    one rectangle a run of dark modules in a row, in module units (a scaling matrix maps them
    to the page), so the stream stays short."""
    matrix = qr_matrix(url)
    count = len(matrix)
    module = size * MM / count
    x0, y0 = left * MM, page_h - top * MM - size * MM
    ops = [f"q {module:.4f} 0 0 {module:.4f} {x0:.2f} {y0:.2f} cm 0 g"]
    for r, row in enumerate(matrix):
        y = count - 1 - r
        c = 0
        while c < count:
            if row[c]:
                start = c
                while c < count and row[c]:
                    c += 1
                ops.append(f"{start} {y} {c - start} 1 re")
            else:
                c += 1
    ops.append("f Q")
    return "\n".join(ops)


def cell_origin(slot: int) -> tuple[float, float]:
    return LEFT + (slot % COLUMNS) * (CELL_W + GAP), TOP + (slot // COLUMNS) * (CELL_H + GAP)


def cut_lines(slots: int, page_h: float) -> str:
    """Dashed outlines of the page's used cells."""
    ops = ["q [3 2] 0 d 0.5 w 0.53 G"]
    for slot in range(slots):
        x, y = cell_origin(slot)
        ops.append(
            f"{x * MM:.2f} {page_h - (y + CELL_H) * MM:.2f} {CELL_W * MM:.2f} "
            f"{CELL_H * MM:.2f} re S"
        )
    ops.append("Q")
    return "\n".join(ops)


def grid_pages(cards: list[tuple]) -> list[Page]:
    """Cards of (lines relative to the cell's top left, QR url[, further QRs]) laid 10 to an
    A4 page."""
    width, height = A4
    pages = []
    for first in range(0, len(cards), PER_PAGE):
        block = cards[first : first + PER_PAGE]
        lines, drawing = [], [cut_lines(len(block), height)]
        for slot, card in enumerate(block):
            card_lines, url = card[0], card[1]
            more = card[2] if len(card) > 2 else []  # further QRs: (url, left, top, size)
            x, y = cell_origin(slot)
            for box, text in card_lines:
                moved = Box(x + box.left, y + box.top, box.width, box.height, box.style, box.align)
                lines.append((moved, text))
            if url:
                drawing.append(qr_drawing(url, x + CELL_W - QR_SIZE - 1, y + 1, QR_SIZE, height))
            for extra, left, top, size in more:
                drawing.append(qr_drawing(extra, x + left, y + top, size, height))
        pages.append(Page(lines, width, height, "\n".join(drawing)))
    return pages


LOGIN_QR = 18  # mm: the captain's one-time login, in the badge's bottom right corner


def badge_card(event: str, team: str, unit: str, players: list[str], url: str, login_url: str = ""):
    """A team badge: name, unit, players, the event, the QR of ``url`` (its check-in) and,
    when ``login_url`` is given, the captain's one-time login QR with its caption."""
    wide = 84 if not login_url else CELL_W - LOGIN_QR - 6
    lines = [
        (Box(3, 3, 54, 9, NAME), team),
        (Box(3, 13, 54, 6, BODY), unit),
        (Box(3, 20, 54, 6, BODY), " · ".join(players)),
        (Box(3, 36, wide, 5, SMALL), event),
        (Box(3, 47, wide, 4, URL), url),
    ]
    more = []
    if login_url:
        x, y = CELL_W - LOGIN_QR - 1, CELL_H - LOGIN_QR - 1
        lines.append((Box(x - 14, y + 2, 14, 4, SMALL), gettext("Captain's login")))
        more.append((login_url, x, y, LOGIN_QR))
    return lines, url, more


def link_card(event: str, table: int, url: str):
    """A QR card of the sheet: the table, large, the event, and the QR of its private link."""
    lines = [
        (Box(3, 3, 54, 13, TABLE_BIG), gettext("Table %(n)s") % {"n": table}),
        (Box(3, 18, 54, 6, BODY), event),
        (Box(3, 47, 84, 4, URL), url),
    ]
    return lines, url


TABLE_CARD_QR = 28  # mm, in the card's bottom right corner


def table_card(event: str, round_no: int, table: int, home: str, away: str, url: str = "") -> Page:
    """A table card (A5 landscape): the event and round, the table number, large, the teams,
    and the QR of ``url`` (the public pairings at this table: players and spectators see
    the match and its result; never the table's private link)."""
    width, height = A5_LANDSCAPE
    grey = Style(10, False, 0.27)
    lines = [
        (
            Box(10, 10, 190, 8, Style(12, False, 0.27), "center"),
            f"{event} · {gettext('Round %(n)s') % {'n': round_no}}",
        ),
        (Box(10, 24, 190, 40, Style(96, True), "center"), gettext("Table %(n)s") % {"n": table}),
        (Box(10, 72, 190, 10, Style(18, False), "center"), home),
        (Box(10, 82, 190, 6, grey, "center"), f"（{gettext('East–West')}）"),
        (Box(10, 96, 190, 10, Style(18, False), "center"), away),
        (Box(10, 106, 190, 6, grey, "center"), f"（{gettext('North–South')}）"),
    ]
    drawing = ""
    if url:
        size = TABLE_CARD_QR
        drawing = qr_drawing(url, 210 - size - 4, 148 - size - 4, size, height)
    return Page(lines, width, height, drawing)


def render_grid(cards: list) -> bytes:
    """Badges or QR cards, 10 to an A4 page (one chunk)."""
    return sheet_text.render_pages(grid_pages(cards), CSS)


def render_table_cards(pages: list[Page]) -> bytes:
    """Table cards, one a page (one chunk)."""
    return sheet_text.render_pages(pages, CSS)


class GridExporter(ChunkedExporter):
    """Cards on an A4 grid; a chunk is whole pages."""

    extension = "pdf"
    content_type = PDF
    chunk_size = 20 * PER_PAGE
    chunk_unit = PER_PAGE

    def cards(self, start: int, stop: int) -> list[tuple[list[tuple[Box, str]], str]]:
        raise NotImplementedError

    def render_chunk(self, start: int, stop: int) -> bytes:
        return render_grid(self.cards(start, stop))

    def assemble(self, parts: list[bytes]) -> bytes:
        return pdf.concatenate(parts)


class TableCardsPdf(ChunkedExporter):
    """One card a table of a round (A5 landscape): the table number, large, and the teams."""

    identifier = "table-cards-pdf"
    extension = "pdf"
    content_type = PDF
    chunk_size = 250  # a card's own text is short: most of a chunk's time is its fonts

    def clean(self, round=None) -> dict:  # noqa: A002 - the URL parameter's name
        return {"round": event_round(self.event, round)}

    def name_parts(self) -> list[str]:
        return ["table-cards", f"r{self.params['round'].number}"]

    def matches(self):
        return self.params["round"].matches.exclude(away=None)

    def item_count(self) -> int:
        return self.matches().count()

    def check_items(self, count: int) -> None:
        if not count:
            raise ExportError(
                _("Round %(number)s has no tables to print."),
                "round",
                number=self.params["round"].number,
            )

    def render_chunk(self, start: int, stop: int) -> bytes:
        rnd = self.params["round"]
        matches = self.matches().select_related("home", "away").order_by("table_number", "pk")
        pairings = public_url(reverse("tournaments:public-pairings", args=[self.event.slug]))
        return render_table_cards(
            [
                table_card(
                    self.event.name,
                    rnd.number,
                    m.table_number,
                    m.home.name,
                    m.away.name,
                    f"{pairings}?round={rnd.number}&q={m.table_number}",
                )
                for m in matches[start:stop]
            ]
        )

    def assemble(self, parts: list[bytes]) -> bytes:
        return pdf.concatenate(parts)


class TeamBadgesPdf(GridExporter):
    """A badge per active team: name, unit, players, a QR that opens its check-in and, once
    made, the captain's one-time login QR (services/accounts.captain_links)."""

    identifier = "team-badges-pdf"

    def teams(self):
        return self.event.teams.filter(status="active")

    def item_count(self) -> int:
        return self.teams().count()

    def check_items(self, count: int) -> None:
        if not count:
            raise ExportError(_("There are no active teams to print badges for."))

    def cards(self, start: int, stop: int):
        from tournaments.services.accounts import captain_links, link_path

        slug = self.event.slug
        teams = self.teams().select_related("unit").prefetch_related("players")
        logins = captain_links(self.event)  # the captain's one-time login, when made
        return [
            badge_card(
                self.event.name,
                team.name,
                team.unit.name if team.unit else "",
                [p.name for p in team.players.all()],
                public_url(f"/t/{slug}/manage/checkin/team/{team.pk}/"),
                public_url(link_path(logins[team.pk])) if team.pk in logins else "",
            )
            for team in teams.order_by("unit__name", "pk")[start:stop]
        ]


class TableLinksPdf(GridExporter):
    """The QR sheet: every table's live private link, to cut out and lay on the tables."""

    identifier = "table-links-pdf"

    def keys(self):
        return TableKey.objects.filter(event=self.event, revoked_at__isnull=True)

    def item_count(self) -> int:
        return self.keys().count()

    def check_items(self, count: int) -> None:
        if not count:
            raise ExportError(_("No table has a live link yet: issue the links first."))

    def cards(self, start: int, stop: int):
        keys = self.keys().order_by("table_number", "pk")[start:stop]
        return [
            link_card(self.event.name, key.table_number, public_url(f"/table/{key.key}/"))
            for key in keys
        ]
