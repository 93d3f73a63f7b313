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
from django.utils.translation import gettext as _

ROW_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?row[\s/>]")
READ_SIZE = 256 * 1024


class SpreadsheetRefused(Exception):
    """The file is not one we parse (too big unpacked, too many rows, not an .xlsx)."""


@dataclass(frozen=True)
class SheetSize:
    rows: int  # rows in the worksheets, header included
    unpacked: int  # bytes of the zip's members, uncompressed


def max_unpacked() -> int:
    return int(getattr(settings, "PAISAI_IMPORT_MAX_UNPACKED_BYTES", 40 * 1024 * 1024))


def max_rows() -> int:
    return int(getattr(settings, "PAISAI_IMPORT_MAX_ROWS", 25_000))


def megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.0f}"


def count_rows(member, limit: int) -> int:
    """Rows of one worksheet's XML, read in pieces; stops once past ``limit``."""
    rows, tail = 0, b""
    while chunk := member.read(READ_SIZE):
        data = tail + chunk
        rows += len(ROW_TAG.findall(data))
        tail = data[-32:]
        rows -= len(ROW_TAG.findall(tail))  # counted again with the next piece
        if rows > limit:
            return rows
    return rows + len(ROW_TAG.findall(tail))


def check_xlsx(data: bytes, not_xlsx: str) -> SheetSize:
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
                )
                % {"size": megabytes(unpacked), "limit": megabytes(max_unpacked())}
            )
        sheets = [
            info
            for info in members
            if info.filename.startswith("xl/worksheets/") and info.filename.endswith(".xml")
        ]
        if not sheets:
            raise SpreadsheetRefused(not_xlsx)
        limit = max_rows() + 1  # the header row
        rows = 0
        try:
            for info in sheets:
                with archive.open(info) as member:
                    rows += count_rows(member, limit - rows)
                if rows > limit:
                    raise SpreadsheetRefused(
                        _(
                            "The file has more than %(limit)s rows; at most %(limit)s teams "
                            "can be imported at once."
                        )
                        % {"limit": f"{max_rows():,}"}
                    )
        except (zipfile.BadZipFile, OSError, ValueError, EOFError):
            raise SpreadsheetRefused(not_xlsx) from None
    return SheetSize(rows=rows, unpacked=unpacked)
