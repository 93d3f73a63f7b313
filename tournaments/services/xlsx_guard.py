"""Checks on an uploaded .xlsx before anything parses it: what it expands to, and its rows.

An .xlsx is a zip: 400 KB can expand to 300 MB of empty rows or one 400 MB cell, and a
parser given it takes a worker's memory and minutes. So the zip's directory is read first
(the sizes it declares bound what :mod:`zipfile` will ever inflate: a member that inflates
to more fails its CRC check), then the worksheets are streamed once, in small pieces,
counting rows and stopping at the limit. Only a file that passes is handed to openpyxl
(read-only, streamed).
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from tournaments.errors import ServiceError

ROW_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?row[\s/>]")
CELL_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?c[\s/>]")
# A document type declaration: no .xlsx written by a spreadsheet has one, and with it come
# external entities (XXE) and entity expansion (billion laughs).
DTD_TAG = re.compile(rb"<!(?:DOCTYPE|ENTITY)", re.IGNORECASE)
READ_SIZE = 256 * 1024


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
    return int(getattr(settings, "PAISAI_IMPORT_MAX_ROWS", 25_000))


def megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.0f}"


def scan(member, limit: int, not_xlsx) -> tuple[int, int]:
    """(rows, cells) of one worksheet's XML, read in pieces; stops once past ``limit`` rows.
    SpreadsheetRefused (``not_xlsx``) when it declares a document type."""
    rows = cells = 0
    tail = b""
    while chunk := member.read(READ_SIZE):
        data = tail + chunk
        if DTD_TAG.search(data):
            raise SpreadsheetRefused(not_xlsx)
        rows += len(ROW_TAG.findall(data))
        cells += len(CELL_TAG.findall(data))
        tail = data[-32:]
        rows -= len(ROW_TAG.findall(tail))  # counted again with the next piece
        cells -= len(CELL_TAG.findall(tail))
        if rows > limit:
            return rows, cells
    return rows + len(ROW_TAG.findall(tail)), cells + len(CELL_TAG.findall(tail))


def declares_dtd(member) -> bool:
    tail = b""
    while chunk := member.read(READ_SIZE):
        data = tail + chunk
        if DTD_TAG.search(data):
            return True
        tail = data[-16:]
    return False


def check_xlsx(data: bytes, not_xlsx) -> SheetSize:
    """The file's size unpacked and its rows, or SpreadsheetRefused saying what is wrong
    (``not_xlsx`` when it is not an .xlsx at all)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError):
        raise SpreadsheetRefused(not_xlsx) from None
    with archive:
        members = archive.infolist()
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
                with archive.open(info) as member:
                    if declares_dtd(member):
                        raise SpreadsheetRefused(not_xlsx)
            for info in sheets:
                with archive.open(info) as member:
                    found_rows, found_cells = scan(member, limit - rows, not_xlsx)
                rows, cells = rows + found_rows, cells + found_cells
                if rows > limit:
                    raise SpreadsheetRefused(
                        _(
                            "The file has more than %(limit)s rows; at most %(limit)s teams "
                            "can be imported at once."
                        ),
                        limit=f"{max_rows():,}",
                    )
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
            raise SpreadsheetRefused(not_xlsx) from None
    return SheetSize(rows=rows, unpacked=unpacked, cells=cells)
