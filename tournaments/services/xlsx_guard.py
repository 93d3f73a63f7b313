"""Checks on an uploaded .xlsx before openpyxl parses it: the zip, and every XML part read by
a real parser (defusedxml), whatever its encoding.

An .xlsx is a zip: 400 KB can expand to 300 MB of empty rows or one 400 MB cell, 40,000
tiny parts keep a parser busy for a minute, and an XML part may declare a document type
(external entities, entity expansion). So, in order:

1. the zip's directory: at most ``PAISAI_IMPORT_MAX_PARTS`` parts, at most
   ``PAISAI_IMPORT_MAX_UNPACKED_BYTES`` unpacked, no part above ``PAISAI_IMPORT_MAX_RATIO``
   times its compressed size (the sizes it declares bound what :mod:`zipfile` will ever
   inflate: a part that inflates to more fails its CRC check);
2. no link to another workbook (an ``xl/externalLinks/`` part, or a relationship to an
   external target other than a cell's hyperlink);
3. every XML part streamed through :class:`defusedxml.ElementTree.DefusedXMLParser` (expat:
   UTF-8, UTF-16, a byte-order mark, all decoded by the parser): a document type
   declaration or an entity is refused in any encoding, the worksheets' rows and cells are
   counted from the elements the parser sees, stopping once past ``PAISAI_IMPORT_MAX_ROWS``.
   UTF-32, which expat does not read (and no spreadsheet writes), is refused by name.

Only a file that passes is handed to openpyxl (read-only, streamed, and itself behind
defusedxml once it is installed). Each refusal names what is wrong, in the reader's language.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from xml.etree.ElementTree import ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from tournaments.errors import ServiceError

READ_SIZE = 256 * 1024
# A part this small is never refused for its ratio (a short XML part compresses well).
RATIO_GRACE = 100 * 1024
UTF32 = (b"\x00\x00\xfe\xff", b"\xff\xfe\x00\x00", b"\x00\x00\x00<", b"<\x00\x00\x00")
EXTERNAL_LINKS = "xl/externalLinks/"
HYPERLINK = "/relationships/hyperlink"


class SpreadsheetRefused(ServiceError):
    """The file is not one we parse (too big unpacked, too many rows, not an .xlsx); the
    field at fault is ``file``."""

    def __init__(self, message, field: str | None = "file", code=None, /, **params) -> None:
        super().__init__(message, field, code, **params)


@dataclass(frozen=True)
class SheetSize:
    rows: int  # rows in the worksheets, header included
    unpacked: int  # bytes of the zip's members, uncompressed
    cells: int = 0  # cells written in the worksheets (a wide sheet parses slowly)


def max_unpacked() -> int:
    return int(settings.PAISAI_IMPORT_MAX_UNPACKED_BYTES)


def max_rows() -> int:
    return int(settings.PAISAI_IMPORT_MAX_ROWS)


def max_parts() -> int:
    return int(settings.PAISAI_IMPORT_MAX_PARTS)


def max_ratio() -> int:
    return int(settings.PAISAI_IMPORT_MAX_RATIO)


def megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.0f}"


def too_many_rows() -> SpreadsheetRefused:
    return SpreadsheetRefused(
        _(
            "The file has more than %(limit)s rows; at most %(limit)s teams can be imported at once."
        ),
        limit=f"{max_rows():,}",
    )


class Counter:
    """The parser's target: counts the rows and cells of a worksheet (by their local name,
    whatever the namespace prefix), notes a relationship to an external target."""

    def __init__(self, limit: int | None = None) -> None:
        self.rows = self.cells = 0
        self.limit = limit
        self.external: str | None = None

    def start(self, tag: str, attrib: dict) -> None:
        name = tag.rpartition("}")[2]
        if name == "c":
            self.cells += 1
        elif name == "row":
            self.rows += 1
            if self.limit is not None and self.rows > self.limit:
                raise too_many_rows()  # parsing stops here
        elif name == "Relationship" and attrib.get("TargetMode", "").lower() == "external":
            if not attrib.get("Type", "").endswith(HYPERLINK):
                self.external = attrib.get("Target", "") or "?"

    def close(self) -> Counter:
        return self


def parse_part(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int | None) -> Counter:
    """Stream one XML part through defusedxml; its counts, or SpreadsheetRefused naming the
    part and what is wrong with it."""
    part = info.filename
    counter = Counter(limit)
    parser = DefusedXMLParser(target=counter, forbid_dtd=True)
    with archive.open(info) as member:
        head = member.read(READ_SIZE)
        if head.startswith(UTF32):
            raise SpreadsheetRefused(
                _(
                    "Part %(part)s of the file is written in UTF-32, which no spreadsheet "
                    "writes; open the list in a spreadsheet and save it again as .xlsx."
                ),
                part=part,
            )
        try:
            chunk = head
            while chunk:
                parser.feed(chunk)
                chunk = member.read(READ_SIZE)
            parser.close()
        except DefusedXmlException:
            raise SpreadsheetRefused(
                _(
                    "Part %(part)s of the file declares a document type or an entity "
                    "(<!DOCTYPE>, <!ENTITY>), which no spreadsheet writes and which could "
                    "fetch or expand content; the file is refused."
                ),
                part=part,
            ) from None
        except ParseError as error:
            line, column = getattr(error, "position", (0, 0))
            raise SpreadsheetRefused(
                _(
                    "The file is damaged: part %(part)s is not well-formed XML (line "
                    "%(line)s, column %(column)s). Save the list again from a spreadsheet."
                ),
                part=part,
                line=line,
                column=column,
            ) from None
    return counter


def check_zip(members: list[zipfile.ZipInfo]) -> int:
    """The bytes the zip unpacks to, or SpreadsheetRefused: too many parts, too big
    unpacked, a part compressed past the ratio of any spreadsheet (a zip bomb)."""
    if len(members) > max_parts():
        raise SpreadsheetRefused(
            _(
                "The file holds %(count)s parts; a team list holds at most %(limit)s. "
                "Save the list again from a spreadsheet, without pictures or attachments."
            ),
            count=f"{len(members):,}",
            limit=f"{max_parts():,}",
        )
    unpacked = sum(info.file_size for info in members)
    if unpacked > max_unpacked():
        raise SpreadsheetRefused(
            _(
                "The file unpacks to %(size)s MB; at most %(limit)s MB can be imported. "
                "Remove empty rows and columns, or split the list."
            ),
            size=megabytes(unpacked),
            limit=megabytes(max_unpacked()),
        )
    for info in members:
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > RATIO_GRACE and ratio > max_ratio():
            raise SpreadsheetRefused(
                _(
                    "Part %(part)s of the file unpacks to %(ratio)s times its packed size "
                    "(at most %(limit)s): it is a zip bomb, not a spreadsheet."
                ),
                part=info.filename,
                ratio=f"{ratio:,.0f}",
                limit=max_ratio(),
            )
    return unpacked


def check_xlsx(data: bytes, not_xlsx) -> SheetSize:
    """The file's size unpacked and its rows, or SpreadsheetRefused saying what is wrong
    (``not_xlsx`` when it is not an .xlsx at all)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError):
        raise SpreadsheetRefused(not_xlsx) from None
    with archive:
        members = archive.infolist()
        unpacked = check_zip(members)
        linked = [info.filename for info in members if info.filename.startswith(EXTERNAL_LINKS)]
        if linked:
            raise external_link(linked[0])
        sheets = [
            info
            for info in members
            if info.filename.startswith("xl/worksheets/") and info.filename.endswith(".xml")
        ]
        if not sheets:
            raise SpreadsheetRefused(not_xlsx)
        limit = max_rows() + 1  # the header row
        rows = cells = 0
        try:
            for info in members:
                if info in sheets or not info.filename.endswith((".xml", ".rels")):
                    continue
                found = parse_part(archive, info, None)
                if found.external:
                    raise external_link(f"{info.filename} → {found.external}")
            for info in sheets:
                found = parse_part(archive, info, limit - rows)
                rows, cells = rows + found.rows, cells + found.cells
                if rows > limit:
                    raise too_many_rows()
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
            raise SpreadsheetRefused(not_xlsx) from None
    return SheetSize(rows=rows, unpacked=unpacked, cells=cells)


def external_link(where: str) -> SpreadsheetRefused:
    return SpreadsheetRefused(
        _(
            "The file links to another file (%(link)s); a team list must stand alone. "
            "Break the links (Data › Edit Links) and save it again."
        ),
        link=where,
    )
