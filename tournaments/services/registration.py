"""Creating events and registering teams: by hand or from an .xlsx file (all-or-nothing).

An uploaded file is checked before it is parsed (services/xlsx_guard.py: what it unpacks
to, how many rows). A list of more than ``PAISAI_IMPORT_BACKGROUND_ROWS`` teams is imported
by a background job with progress (:func:`create_import_job`, run by tasks.py); a shorter
one at once. Either way nothing is imported when any row is bad, and every bad row is
reported with its number and reason.
"""

from __future__ import annotations

import io
import shutil
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.translation import gettext as _
from openpyxl import Workbook, load_workbook
from openpyxl.utils.exceptions import InvalidFileException

from tournaments import permissions
from tournaments.errors import Forbidden, ServiceError
from tournaments.models import ExportJob, Player, Role, Team, Tournament, TournamentRole, Unit
from tournaments.standings.service import invalidate
from tournaments.validation import INT_MAX

from . import jobs, xlsx_guard
from .audit import log_action

IMPORT_JOB = "team-import"
PROGRESS_EVERY = 1000  # rows
BATCH = 2000  # rows per INSERT

# Accepted header names per column (Chinese and English, case-insensitive).
IMPORT_COLUMNS = {
    "team": ("队名", "team", "team name", "队伍"),
    "unit": ("单位", "unit", "club"),
    "player1": ("队员1", "player 1", "player1", "选手1"),
    "player2": ("队员2", "player 2", "player2", "选手2"),
    "seed": ("种子", "seed", "种子号"),
}
TEMPLATE_HEADERS = ["队名 Team", "单位 Unit", "队员1 Player 1", "队员2 Player 2", "种子 Seed"]


class ImportFileError(ServiceError):
    """The file as a whole cannot be read (not an .xlsx, no header, empty)."""

    def __init__(self, message, field: str | None = "file", **params) -> None:
        super().__init__(message, field, **params)


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
    if not permissions.can_create_tournament(user):
        raise Forbidden(_("You may not create events."))
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


def player_team(tournament: Tournament, name: str, exclude: Team | None = None) -> Team | None:
    """The team of the event a player of this name plays for (one person, one team)."""
    players = Player.objects.filter(team__tournament=tournament, name=(name or "").strip())
    if exclude is not None and exclude.pk:
        players = players.exclude(team=exclude)
    found = players.select_related("team").first()
    return found.team if found else None


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
    permissions.require(user, tournament, "team.register")
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
    try:
        with transaction.atomic():
            team.save()
    except IntegrityError:
        raise ServiceError(
            _("This team clashes with another registration (name or seed)."), "name"
        ) from None
    for order, player_name in enumerate(players, start=1):
        other = player_team(tournament, player_name, exclude=team)
        if other is not None:
            raise ServiceError(
                _("%(player)s already plays for %(team)s: one person, one team per event."),
                f"player{order}",
                player=player_name.strip(),
                team=other.name,
            )
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


def not_xlsx() -> str:
    return _("This is not an .xlsx file (Excel 2007 or later).")


def check_import_file(data: bytes) -> xlsx_guard.SheetSize:
    """Refuse (ImportFileError) a file too big unpacked or too long, before parsing it."""
    try:
        return xlsx_guard.check_xlsx(data, not_xlsx())
    except xlsx_guard.SpreadsheetRefused as error:
        raise ImportFileError(str(error)) from None


def background_rows() -> int:
    return int(getattr(settings, "PAISAI_IMPORT_BACKGROUND_ROWS", 2000))


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


def read_team_rows(
    data: bytes, progress: Callable[[int], None] | None = None
) -> tuple[list[TeamRow], list[tuple[int, str]]]:
    """Parse an .xlsx team list (checked first, then streamed). Returns the good rows and
    every bad row's (number, reason); ``progress(rows read)`` every 1,000 rows."""
    check_import_file(data)
    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, OSError, ValueError) as exc:
        raise ImportFileError(not_xlsx()) from exc
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
        if progress and number % PROGRESS_EVERY == 0:
            progress(number)
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
    permissions.require(user, tournament, "team.import")
    rows, errors = read_team_rows(data)
    errors = check_rows(tournament, rows, errors)
    if errors:
        return ImportReport(created=0, errors=errors)
    with transaction.atomic():
        create_teams(tournament, user, rows)
    return ImportReport(created=len(rows))


def check_rows(
    tournament: Tournament, rows: list[TeamRow], errors: list[tuple[int, str]]
) -> list[tuple[int, str]]:
    """Every bad row, in order: the file's own problems and clashes (duplicate names and
    seeds, in the file or with teams already registered)."""
    errors = list(errors)
    existing_names = set(Team.objects.filter(tournament=tournament).values_list("name", flat=True))
    existing_seeds = set(
        Team.objects.filter(tournament=tournament, seed__isnull=False).values_list(
            "seed", flat=True
        )
    )
    seen_names: dict[str, int] = {}
    seen_seeds: dict[int, int] = {}
    registered_players = dict(
        Player.objects.filter(team__tournament=tournament).values_list("name", "team__name")
    )
    seen_players: dict[str, int] = {}
    for row in rows:
        problems = []
        if (row.team, row.unit, list(row.players)) == TEMPLATE_EXAMPLE:
            problems.append(_("this is the template's example row: delete it before importing"))
        for player in row.players:
            if player in registered_players:
                problems.append(
                    _("column %(column)s: %(player)s already plays for %(team)s")
                    % {"column": _("players"), "player": player,
                       "team": registered_players[player]}
                )  # fmt: skip
            elif player in seen_players and seen_players[player] != row.row:
                problems.append(
                    _("column %(column)s: %(player)s is also on row %(row)d")
                    % {"column": _("players"), "player": player, "row": seen_players[player]}
                )
            seen_players.setdefault(player, row.row)
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
    return errors


def create_teams(tournament: Tournament, user, rows: list[TeamRow]) -> None:
    """Create the checked rows' units, teams and players (inside the caller's transaction)."""
    names = {row.team for row in rows}
    units = {u.name: u for u in Unit.objects.filter(tournament=tournament)}
    new_units = sorted({row.unit for row in rows if row.unit and row.unit not in units})
    Unit.objects.bulk_create(
        [Unit(tournament=tournament, name=name) for name in new_units], batch_size=BATCH
    )
    if new_units:
        units = {u.name: u for u in Unit.objects.filter(tournament=tournament)}
    teams = Team.objects.bulk_create(
        [
            Team(tournament=tournament, name=r.team, unit=units.get(r.unit), seed=r.seed)
            for r in rows
        ],
        batch_size=BATCH,
    )
    if not all(t.pk for t in teams):  # backends without RETURNING ids
        by_name = {t.name: t for t in Team.objects.filter(tournament=tournament, name__in=names)}
        teams = [by_name[r.team] for r in rows]
    Player.objects.bulk_create(
        [
            Player(team=team, name=name, seat_order=order)
            for team, row in zip(teams, rows, strict=True)
            for order, name in enumerate(row.players, 1)
        ],
        batch_size=BATCH,
    )
    log_action(tournament, user, "team.import", tournament, data={"teams": len(rows)})
    invalidate(tournament)  # bulk writes send no signal: the public team lists changed


# --- large imports as a background job ----------------------------------------------------


def upload_path(job: ExportJob | int):
    return jobs.workspace(job) / "upload.xlsx"


def create_import_job(tournament: Tournament, user, data: bytes) -> ExportJob:
    """Keep the (checked) file for a background import; ``tasks.start`` queues it."""
    job = ExportJob.objects.create(
        tournament=tournament,
        kind=IMPORT_JOB,
        params={"language": translation.get_language() or settings.LANGUAGE_CODE},
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    path = upload_path(job)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return job


def run_import_job(job: ExportJob) -> None:
    """Read, check and import the job's file; progress counts rows read. The teams and the
    job's "done" are written in one transaction: run again, it imports nothing twice."""
    data = upload_path(job).read_bytes()
    with translation.override(jobs.job_language(job)):
        try:
            total = max(1, check_import_file(data).rows - 1)
            jobs.mark_running(job, total)
            rows, errors = read_team_rows(
                data, progress=lambda n: jobs.set_progress(job.pk, min(n, total), total)
            )
        except ImportFileError as error:
            jobs.refuse(job.pk, str(error))
            return
        errors = check_rows(job.tournament, rows, errors)
        if errors:
            ExportJob.objects.filter(pk=job.pk).update(
                report={"created": 0, "errors": errors[:1000], "bad_rows": len(errors)}
            )
            jobs.refuse(
                job.pk,
                _("%(count)s rows have problems; nothing was imported.") % {"count": len(errors)},
            )
            return
        with transaction.atomic():
            create_teams(job.tournament, job.created_by, rows)
            ExportJob.objects.filter(pk=job.pk).update(report={"created": len(rows), "errors": []})
            jobs.finish(job, total)
    shutil.rmtree(jobs.workspace(job), ignore_errors=True)


# The template's example row: refused by the import, so a forgotten example never registers.
TEMPLATE_EXAMPLE = ("苏州一队", "苏州棋牌协会", ["张三", "李四"])


def template_workbook() -> bytes:
    """The .xlsx template offered for download."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "teams"
    sheet.append(TEMPLATE_HEADERS)
    sheet.append([*TEMPLATE_EXAMPLE[:2], *TEMPLATE_EXAMPLE[2], 1])
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
