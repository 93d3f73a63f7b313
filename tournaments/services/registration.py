"""Creating events and registering teams: by hand or from an .xlsx file (all-or-nothing)."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _
from openpyxl import Workbook, load_workbook
from openpyxl.utils.exceptions import InvalidFileException

from tournaments.models import Player, Role, Team, Tournament, TournamentRole, Unit
from tournaments.validation import INT_MAX

from .audit import log_action

# Accepted header names per column (Chinese and English, case-insensitive).
IMPORT_COLUMNS = {
    "team": ("队名", "team", "team name", "队伍"),
    "unit": ("单位", "unit", "club"),
    "player1": ("队员1", "player 1", "player1", "选手1"),
    "player2": ("队员2", "player 2", "player2", "选手2"),
    "seed": ("种子", "seed", "种子号"),
}
TEMPLATE_HEADERS = ["队名 Team", "单位 Unit", "队员1 Player 1", "队员2 Player 2", "种子 Seed"]


class ImportFileError(Exception):
    """The file as a whole cannot be read (not an .xlsx, no header, empty)."""


@dataclass
class TeamRow:
    row: int
    team: str
    unit: str
    players: list[str]
    seed: int | None


@dataclass
class ImportReport:
    created: int = 0
    errors: list[tuple[int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def create_tournament(user, **fields) -> Tournament:
    """Create an event; its creator becomes its first organiser."""
    with transaction.atomic():
        tournament = Tournament.objects.create(created_by=user, **fields)
        TournamentRole.objects.create(user=user, tournament=tournament, role=Role.ORGANISER)
        log_action(
            tournament, user, "tournament.create", tournament, data={"name": tournament.name}
        )
    return tournament


def get_or_create_unit(tournament: Tournament, name: str) -> Unit | None:
    name = (name or "").strip()
    if not name:
        return None
    unit, _created = Unit.objects.get_or_create(tournament=tournament, name=name)
    return unit


@transaction.atomic
def save_team(
    tournament: Tournament,
    user,
    *,
    name: str,
    unit_name: str,
    players: list[str],
    seed: int | None,
    team: Team | None = None,
    status: str | None = None,
) -> Team:
    """Create or update a team and its two players, with an audit entry."""
    unit = get_or_create_unit(tournament, unit_name)
    creating = team is None
    if creating:
        team = Team(tournament=tournament)
    before = (
        None if creating else {"name": team.name, "unit": str(team.unit or ""), "seed": team.seed}
    )
    team.name, team.unit, team.seed = name.strip(), unit, seed
    if status:
        team.status = status
    team.save()
    for order, player_name in enumerate(players, start=1):
        Player.objects.update_or_create(
            team=team, seat_order=order, defaults={"name": player_name.strip()}
        )
    log_action(
        tournament,
        user,
        "team.create" if creating else "team.update",
        team,
        data={
            "before": before,
            "after": {
                "name": team.name,
                "unit": unit_name,
                "seed": seed,
                "players": players,
                "status": team.status,
            },
        },
    )
    return team


def _header_map(header: tuple) -> dict[str, int]:
    found: dict[str, int] = {}
    for index, cell in enumerate(header):
        text = str(cell or "").strip().lower()
        for key, names in IMPORT_COLUMNS.items():
            if any(
                text == n.lower()
                or text.startswith(n.lower() + " ")
                or text.endswith(" " + n.lower())
                for n in names
            ):
                found.setdefault(key, index)
    return found


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


# Each cell's column, for its length: checked here, before the database sees the text.
CELL_FIELDS = {"team": (Team, "name"), "unit": (Unit, "name"), "player1": (Player, "name"),
               "player2": (Player, "name")}  # fmt: skip


def cell_problems(cell: dict[str, str]) -> list[str]:
    """Text too long for its column, or holding a NUL character."""
    problems = []
    for key, (model, name) in CELL_FIELDS.items():
        value = cell.get(key, "")
        limit = model._meta.get_field(name).max_length
        if len(value) > limit:
            problems.append(
                _("%(column)s is longer than %(max)s characters") % {"column": key, "max": limit}
            )
        if "\x00" in value:
            problems.append(_("%(column)s contains a NUL character") % {"column": key})
    return problems


def read_team_rows(data: bytes) -> tuple[list[TeamRow], list[tuple[int, str]]]:
    """Parse an .xlsx team list. Returns the good rows and every bad row's (number, reason)."""
    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, OSError, ValueError) as exc:
        raise ImportFileError(_("This is not an .xlsx file (Excel 2007 or later).")) from exc
    sheet = workbook.worksheets[0]
    rows = sheet.iter_rows(values_only=True)
    header = next(rows, None)
    if header is None:
        raise ImportFileError(_("The file is empty."))
    columns = _header_map(header)
    missing = [key for key in ("team", "player1", "player2") if key not in columns]
    if missing:
        raise ImportFileError(
            _("The first row must be the header: %(headers)s.")
            % {"headers": ", ".join(TEMPLATE_HEADERS)}
        )
    known = set(columns.values())
    good: list[TeamRow] = []
    errors: list[tuple[int, str]] = []
    for number, values in enumerate(rows, start=2):
        values = tuple(values or ())
        if not any(_text(v) for v in values):
            continue
        cell = {
            key: _text(values[idx]) if idx < len(values) else "" for key, idx in columns.items()
        }
        extra = [v for i, v in enumerate(values) if i not in known and _text(v)]
        problems = cell_problems(cell)
        if not cell["team"]:
            problems.append(_("missing team name"))
        if not cell["player1"] or not cell["player2"]:
            problems.append(_("missing player name (a team has exactly two players)"))
        if extra:
            problems.append(_("more than two players (a team has exactly two players)"))
        seed = None
        if cell.get("seed"):
            try:
                seed = int(cell["seed"])
                if not 1 <= seed <= INT_MAX:
                    raise ValueError
            except ValueError:
                problems.append(
                    _("seed must be a whole number from 1 to %(max)s") % {"max": INT_MAX}
                )
        if problems:
            errors.append((number, "; ".join(problems)))
            continue
        good.append(
            TeamRow(
                number, cell["team"], cell.get("unit", ""), [cell["player1"], cell["player2"]], seed
            )
        )
    return good, errors


def import_teams(tournament: Tournament, user, data: bytes) -> ImportReport:
    """All-or-nothing import: a file with any bad row imports nothing and reports every bad row."""
    rows, errors = read_team_rows(data)
    existing_names = set(Team.objects.filter(tournament=tournament).values_list("name", flat=True))
    existing_seeds = set(
        Team.objects.filter(tournament=tournament, seed__isnull=False).values_list(
            "seed", flat=True
        )
    )
    seen_names: dict[str, int] = {}
    seen_seeds: dict[int, int] = {}
    for row in rows:
        problems = []
        if row.team in existing_names:
            problems.append(
                _("duplicate team: %(name)s is already registered") % {"name": row.team}
            )
        elif row.team in seen_names:
            problems.append(
                _("duplicate team: %(name)s is also on row %(row)d")
                % {"name": row.team, "row": seen_names[row.team]}
            )
        if row.seed is not None and (row.seed in existing_seeds or row.seed in seen_seeds):
            problems.append(_("duplicate seed %(seed)d") % {"seed": row.seed})
        seen_names.setdefault(row.team, row.row)
        if row.seed is not None:
            seen_seeds.setdefault(row.seed, row.row)
        if problems:
            errors.append((row.row, "; ".join(problems)))
    errors.sort()
    if errors:
        return ImportReport(created=0, errors=errors)
    with transaction.atomic():
        units = {u.name: u for u in Unit.objects.filter(tournament=tournament)}
        for row in rows:
            if row.unit and row.unit not in units:
                units[row.unit] = Unit.objects.create(tournament=tournament, name=row.unit)
        teams = Team.objects.bulk_create(
            [
                Team(tournament=tournament, name=r.team, unit=units.get(r.unit), seed=r.seed)
                for r in rows
            ]
        )
        if not all(t.pk for t in teams):  # backends without RETURNING ids
            by_name = {
                t.name: t for t in Team.objects.filter(tournament=tournament, name__in=seen_names)
            }
            teams = [by_name[r.team] for r in rows]
        Player.objects.bulk_create(
            [
                Player(team=team, name=name, seat_order=order)
                for team, row in zip(teams, rows, strict=True)
                for order, name in enumerate(row.players, 1)
            ]
        )
        log_action(tournament, user, "team.import", tournament, data={"teams": len(rows)})
    return ImportReport(created=len(rows))


def template_workbook() -> bytes:
    """The .xlsx template offered for download."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "teams"
    sheet.append(TEMPLATE_HEADERS)
    sheet.append(["苏州一队", "苏州棋牌协会", "张三", "李四", 1])
    for letter, width in zip("ABCDE", (24, 24, 16, 16, 10), strict=True):
        sheet.column_dimensions[letter].width = width
    sheet.freeze_panes = "A2"
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def set_team_status(team: Team, status: str, user, reason: str) -> Team:
    """Withdraw, suspend or reinstate a team (e.g. an arbitration suspension), logged.
    A team that is not active is never paired again."""
    if status not in Team.Status.values:
        raise ValueError(f"unknown team status {status!r}")
    before = team.status
    team.status = status
    team.save(update_fields=["status"])
    log_action(team.tournament, user, "team.status", team,
               data={"before": before, "after": status}, reason=reason)  # fmt: skip
    return team
