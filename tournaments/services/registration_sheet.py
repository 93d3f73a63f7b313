"""Reading a team list (.xlsx) for the import: the columns (Chinese or English headers),
each row's problems naming its row, column and team, and the warnings (a blank unit).

The file is checked before it is parsed (services/xlsx_guard.py: what it unpacks to, how
many rows), then streamed.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter
from openpyxl.utils.exceptions import InvalidFileException

from tournaments.models import Player, Team, Unit
from tournaments.validation import INT_MAX, whole_number

from . import xlsx_guard

PROGRESS_EVERY = 1000  # rows

# Accepted header names per column (Chinese and English, case-insensitive).
IMPORT_COLUMNS = {
    "team": ("队名", "team", "team name", "队伍"),
    "unit": ("单位", "unit", "club"),
    "player1": ("队员1", "player 1", "player1", "选手1"),
    "player2": ("队员2", "player 2", "player2", "选手2"),
    "seed": ("种子", "seed", "种子号"),
    "ident1": ("证件1", "id 1", "id1", "证件号1", "电话1", "phone 1"),
    "ident2": ("证件2", "id 2", "id2", "证件号2", "电话2", "phone 2"),
}
TEMPLATE_HEADERS = [
    "队名 Team",
    "单位 Unit",
    "队员1 Player 1",
    "队员2 Player 2",
    "种子 Seed",
    "证件1 ID 1",
    "证件2 ID 2",
]
# The template's example row: refused by the import, so a forgotten example never registers.
TEMPLATE_EXAMPLE = ("苏州一队", "苏州棋牌协会", ["张三", "李四"])


class ImportFileError(xlsx_guard.SpreadsheetRefused):
    """The file as a whole cannot be read (not an .xlsx, no header, empty)."""


@dataclass
class TeamRow:
    row: int
    team: str
    unit: str
    players: list[str]
    seed: int | None
    idents: list[str] = field(default_factory=lambda: ["", ""])


class Columns:
    """Where each column is in the file, and how a problem names it: letter and header."""

    def __init__(self, header: tuple):
        self.header = header
        self.index: dict[str, int] = {}
        for index, cell in enumerate(header):
            text = str(cell or "").strip().lower()
            for key, names in IMPORT_COLUMNS.items():
                if any(
                    text == n.lower()
                    or text.startswith(n.lower() + " ")
                    or text.endswith(" " + n.lower())
                    for n in names
                ):
                    self.index.setdefault(key, index)

    def name(self, key: str) -> str:
        if key not in self.index:
            return dict(zip(IMPORT_COLUMNS, TEMPLATE_HEADERS, strict=True))[key]
        index = self.index[key]
        return f"{get_column_letter(index + 1)} «{_text(self.header[index])}»"


def problem(columns: Columns, key: str, team: str, text: str) -> str:
    """One problem of a row, naming its column and team."""
    return gettext("column %(column)s, team %(team)s: %(problem)s") % {
        "column": columns.name(key),
        "team": team or "—",
        "problem": text,
    }


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def not_xlsx() -> str:
    return gettext("This is not an .xlsx file (Excel 2007 or later).")


def check_import_file(data: bytes) -> xlsx_guard.SheetSize:
    """Refuse (ImportFileError) a file too big unpacked or too long, before parsing it."""
    try:
        return xlsx_guard.check_xlsx(data, not_xlsx())
    except xlsx_guard.SpreadsheetRefused as error:
        raise ImportFileError.from_error(error) from None


# Each cell's column, for its length: checked here, before the database sees the text.
CELL_FIELDS = {
    "team": (Team, "name"),
    "unit": (Unit, "name"),
    "player1": (Player, "name"),
    "player2": (Player, "name"),
    "ident1": (Player, "ident"),
    "ident2": (Player, "ident"),
}


def cell_problems(cell: dict[str, str], columns: Columns | None = None) -> list[str]:
    """Text too long for its column, or holding a NUL character."""
    columns = columns or Columns(())
    team = cell.get("team", "")
    problems = []
    for key, (model, name) in CELL_FIELDS.items():
        value = cell.get(key, "")
        limit = model._meta.get_field(name).max_length
        if len(value) > limit:
            text = gettext("longer than %(max)s characters") % {"max": limit}
            problems.append(problem(columns, key, team[:40], text))
        if "\x00" in value:
            problems.append(problem(columns, key, team[:40], gettext("contains a NUL character")))
    return problems


@dataclass
class ReadRows:
    rows: list[TeamRow]
    errors: list[tuple[int, str]]
    warnings: list[tuple[int, str]]
    columns: Columns


def read_team_rows(data: bytes, progress: Callable[[int], None] | None = None) -> ReadRows:
    """Parse an .xlsx team list (checked first, then streamed): the good rows, every bad
    row's (number, problems) and the warnings (a blank unit); ``progress(rows read)`` every
    1,000 rows."""
    check_import_file(data)
    try:
        return _read_team_rows(data, progress)
    except ImportFileError:
        raise
    except UNREADABLE as exc:  # openpyxl meets what no spreadsheet writes: not an .xlsx
        raise ImportFileError(not_xlsx()) from exc


# What openpyxl raises on a crafted file as it streams it: a cell of type "n" holding text,
# a date or a boolean that is none, a shared string that does not exist, broken XML.
UNREADABLE = (
    InvalidFileException,
    zipfile.BadZipFile,
    KeyError,
    IndexError,
    TypeError,
    AttributeError,
    OSError,
    EOFError,
    ValueError,
    SyntaxError,
    OverflowError,
)


def _read_team_rows(data: bytes, progress: Callable[[int], None] | None) -> ReadRows:
    # data_only=False: a formula cell is seen as one (data type "f"), named in its row's
    # problems, never read as its cached value or as a blank cell.
    workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    sheet = workbook.worksheets[0]
    rows = sheet.iter_rows()
    header = next(rows, None)
    if header is None:
        raise ImportFileError(_("The file is empty."))
    columns = Columns(tuple(cell.value for cell in header))
    missing = [key for key in ("team", "player1", "player2") if key not in columns.index]
    if missing:
        raise ImportFileError(
            _("The first row must be the header: %(headers)s."), headers=", ".join(TEMPLATE_HEADERS)
        )
    known = set(columns.index.values())
    found = ReadRows([], [], [], columns)
    for number, cells in enumerate(rows, start=2):
        if progress and number % PROGRESS_EVERY == 0:
            progress(number)
        cells = tuple(cells or ())
        values = tuple(c.value for c in cells)
        if not any(_text(v) for v in values):
            continue
        formulas = {
            key: cells[idx]
            for key, idx in columns.index.items()
            if idx < len(cells) and getattr(cells[idx], "data_type", None) == "f"
        }
        cell = {
            key: _text(values[idx]) if idx < len(values) and key not in formulas else ""
            for key, idx in columns.index.items()
        }
        team = cell["team"]
        extra = [i for i, v in enumerate(values) if i not in known and _text(v)]
        problems = cell_problems(cell, columns)
        for key, formula in formulas.items():
            text = gettext(
                "cell %(cell)s holds a formula (%(formula)s), not text: type the value itself, "
                "or paste the column as values"
            ) % {"cell": formula.coordinate, "formula": _text(formula.value)[:40]}
            problems.append(problem(columns, key, team, text))
        if not team and "team" not in formulas:
            problems.append(problem(columns, "team", "", gettext("missing team name")))
        for key in ("player1", "player2"):
            if not cell[key] and key not in formulas:
                text = gettext("missing player name (a team has exactly two players)")
                problems.append(problem(columns, key, team, text))
        if extra:
            problems.append(
                gettext("column %(column)s, team %(team)s: %(problem)s")
                % {
                    "column": get_column_letter(extra[0] + 1),
                    "team": team or "—",
                    "problem": gettext("more than two players (a team has exactly two players)"),
                }
            )
        seed = None
        if cell.get("seed"):
            seed = whole_number(cell["seed"])
            if seed is None or seed < 1:
                text = gettext("seed must be a whole number from 1 to %(max)s") % {"max": INT_MAX}
                problems.append(problem(columns, "seed", team, text))
        if problems:
            found.errors.append((number, "; ".join(problems)))
            continue
        if not cell.get("unit"):
            text = gettext("the unit is blank: the team will have no unit")
            found.warnings.append((number, problem(columns, "unit", team, text)))
        found.rows.append(
            TeamRow(
                number,
                team,
                cell.get("unit", ""),
                [cell["player1"], cell["player2"]],
                seed,
                [cell.get("ident1", ""), cell.get("ident2", "")],
            )
        )
    return found
