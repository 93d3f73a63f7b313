"""Each scoresheet's own text (table number, teams, units, players), drawn straight into PDF
pages with the fonts WeasyPrint embeds.

A scoresheet page holds nine short lines of text at fixed places; everything else on it is the
round's shared background, drawn once (:func:`pdf.stamp_under`). Laying out a page costs
WeasyPrint ~10 ms whatever it holds, so a 2,500-table round spent most of its time on page
layout. Here WeasyPrint renders only one small page per chunk and weight holding every
character the chunk needs; its embedded font subsets (glyph ids, widths and the
ToUnicode map, so the text stays searchable and extractable) are reused, and each sheet's
lines are written as PDF text operators at the places the print stylesheet gives.

Long names are set smaller to fit their cell (down to :data:`MIN_SCALE`) and clipped past it,
as the stylesheet's ``overflow: hidden`` did.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from html import escape

from . import pdf

MM = 72 / 25.4
PAGE_W, PAGE_H = 210 * MM, 297 * MM
MIN_SCALE = 0.6


@dataclass(frozen=True)
class Style:
    size: float  # pt
    bold: bool
    gray: float = 0.0  # 0 black … 1 white


@dataclass(frozen=True)
class Page:
    """One page of positioned text (and optional raw PDF drawing, e.g. a QR code's modules),
    ``width`` × ``height`` in pt."""

    lines: list
    width: float = 210 * 72 / 25.4
    height: float = 297 * 72 / 25.4
    drawing: str = ""


TEAM, BODY, TABLE_NO = Style(11, True), Style(10, False), Style(24, True)


@dataclass(frozen=True)
class Box:
    """A one-line text cell, in mm from the page's top left (as in scoresheet.css)."""

    left: float
    top: float
    width: float
    height: float
    style: Style
    align: str = "left"


TABLE_BOX = Box(157, 13, 36, 12, TABLE_NO, "right")
LABEL_BOX = Box(110, 21, 40, 7, TEAM)  # a knockout's 决赛 / 三四名决赛 (.matchlabel)
COLUMNS = (51 + 1.5, 141 + 1.5)  # the info table's two team columns (.c1, .c2)
CELL_WIDTH = 51


def boxes_of(sheet) -> list[tuple[Box, str]]:
    """The sheet's lines and their cells: table number; per side team, unit, two players."""
    lines = [(TABLE_BOX, str(sheet.table)), (LABEL_BOX, getattr(sheet, "label", ""))]
    for left, side in zip(COLUMNS, (sheet.home, sheet.away), strict=True):
        lines.append((Box(left, 31, CELL_WIDTH, 7, TEAM), side.team))
        for row, text in enumerate((side.unit, *side.players)):
            lines.append((Box(left, 39 + 9 * row, CELL_WIDTH, 9, BODY), text))
    return [(box, text) for box, text in lines if text]


# --- the fonts, borrowed from one small WeasyPrint page per style -------------------------------


@dataclass
class Face:
    """One embedded font: where it is, and per character its glyph id and width (1/1000 em)."""

    font: object  # the font dictionary (pypdf)
    glyphs: dict[str, int]
    widths: dict[int, float]
    default_width: float
    ascent: float
    descent: float


def _cmap(font) -> dict[str, int]:
    """character -> glyph id, read from the font's ToUnicode map (Identity-H: code = gid)."""
    data = font["/ToUnicode"].get_object().get_data().decode("latin-1")
    glyphs: dict[str, int] = {}
    for block in re.findall(r"beginbfchar(.*?)endbfchar", data, re.S):
        for code, uni in re.findall(r"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>", block):
            text = bytes.fromhex(uni).decode("utf-16-be", "replace")
            glyphs.setdefault(text, int(code, 16))
    for block in re.findall(r"beginbfrange(.*?)endbfrange", data, re.S):
        for first, last, uni in re.findall(
            r"<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>", block
        ):
            start = int(uni, 16)
            for offset, code in enumerate(range(int(first, 16), int(last, 16) + 1)):
                glyphs.setdefault(chr(start + offset), code)
    return glyphs


def _widths(descendant) -> tuple[dict[int, float], float]:
    widths: dict[int, float] = {}
    items = list(descendant.get("/W", []))
    i = 0
    while i < len(items):
        first = int(items[i])
        if isinstance(items[i + 1], list):
            for offset, width in enumerate(items[i + 1]):
                widths[first + offset] = float(width)
            i += 2
        else:
            for code in range(first, int(items[i + 1]) + 1):
                widths[code] = float(items[i + 2])
            i += 3
    return widths, float(descendant.get("/DW", 1000))


def _faces(text: str, bold: bool, css: str) -> list[Face]:
    """The fonts WeasyPrint embeds to set ``text`` in that weight (the family's fallbacks too)."""
    from pypdf import PdfReader

    weight = "bold" if bold else "normal"
    css_style = f"font-weight:{weight};white-space:pre-wrap"
    html = f'<html><body><div style="{css_style}">{escape(text)}</div></body></html>'
    page = PdfReader(io.BytesIO(pdf.render_pdf((html, css)))).pages[0]
    faces = []
    for ref in page["/Resources"]["/Font"].values():
        font = ref.get_object()
        descendant = font["/DescendantFonts"][0].get_object()
        descriptor = descendant["/FontDescriptor"].get_object()
        widths, default = _widths(descendant)
        faces.append(
            Face(
                font,
                _cmap(font),
                widths,
                default,
                float(descriptor["/Ascent"]),
                float(descriptor["/Descent"]),
            )
        )
    return faces


# --- the pages ------------------------------------------------------------------------------


class Fonts:
    """The faces of each weight for one document (any size), cloned into ``writer`` once."""

    def __init__(self, writer, texts: dict[bool, str], css: str):
        self.faces: dict[bool, list[tuple[str, Face]]] = {}
        self.resources = {}
        for bold, text in texts.items():
            named = []
            for face in _faces(text, bold, css):
                name = f"/P{len(self.resources)}"
                self.resources[name] = face.font.clone(writer).indirect_reference
                named.append((name, face))
            self.faces[bold] = named

    def runs(self, text: str, style: Style) -> list[tuple[str, Face, list[int]]]:
        """``text`` as runs of (font name, face, glyph ids): each character in the first face
        that has it (the family's own before its fallbacks), .notdef where none has."""
        faces = self.faces[style.bold]
        runs: list[tuple[str, Face, list[int]]] = []
        for char in text:
            name, face = next(((n, f) for n, f in faces if char in f.glyphs), faces[0])
            gid = face.glyphs.get(char, 0)
            if runs and runs[-1][0] == name:
                runs[-1][2].append(gid)
            else:
                runs.append((name, face, [gid]))
        return runs


def _line(fonts: Fonts, box: Box, text: str, page_h: float = PAGE_H) -> str:
    """PDF operators drawing ``text`` in its cell: shrunk to fit, clipped, baseline placed as
    CSS places it (half-leading above and below the font's ascent + descent)."""
    runs = fonts.runs(text, box.style)
    width_em = sum(
        sum(face.widths.get(g, face.default_width) for g in gids) / 1000 for _, face, gids in runs
    )
    cell = box.width * MM
    size = box.style.size
    if width_em * size > cell:
        size = max(box.style.size * MIN_SCALE, cell / width_em)
    face = runs[0][1]
    ascent, descent = face.ascent / 1000 * size, -face.descent / 1000 * size
    line_height = box.height * MM
    top = page_h - box.top * MM
    baseline = top - (line_height - ascent - descent) / 2 - ascent
    x = box.left * MM
    left = x
    if box.align == "right":
        x += max(0.0, cell - width_em * size)
    elif box.align == "center":
        x += max(0.0, cell - width_em * size) / 2
    gray = f"{box.style.gray:.2f} g " if box.style.gray else ""
    ops = [
        f"q {left - 1:.2f} {top - line_height:.2f} {cell + 2:.2f} {line_height:.2f} re W n",
        f"{gray}BT {x:.2f} {baseline:.2f} Td",
    ]
    for name, _face, gids in runs:
        hexed = "".join(f"{gid:04x}" for gid in gids)
        ops.append(f"{name} {size:.2f} Tf <{hexed}> Tj")
    ops.append("ET Q")
    return "\n".join(ops)


def render(sheets: list, css_name: str) -> bytes:
    """One scoresheet page per sheet holding only that table's own text."""
    return render_pages([Page(boxes_of(sheet), PAGE_W, PAGE_H) for sheet in sheets], css_name)


def render_pages(pages: list[Page], css_name: str) -> bytes:
    """The pages as one PDF: each page's lines drawn as text operators in the fonts of one
    small WeasyPrint page per weight (every character of the document), and its drawing."""
    from pypdf import PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    css = pdf.css_text(css_name)
    texts: dict[bool, set[str]] = {}
    for page in pages:
        for box, text in page.lines:
            if text:
                texts.setdefault(box.style.bold, set()).update(text)
    writer = PdfWriter()
    fonts = Fonts(writer, {bold: "".join(sorted(chars)) for bold, chars in texts.items()}, css)
    font_dict = DictionaryObject({NameObject(k): v for k, v in fonts.resources.items()})
    font_ref = writer._add_object(font_dict)
    for page in pages:
        blank = writer.add_blank_page(page.width, page.height)
        blank[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): font_ref})
        stream = DecodedStreamObject()
        body = "\n".join(_line(fonts, box, text, page.height) for box, text in page.lines if text)
        stream.set_data(("0 g\n" + page.drawing + "\n" + body).encode("latin-1"))
        blank[NameObject("/Contents")] = writer._add_object(stream.flate_encode())
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
