"""Importing teams from an .xlsx file (all-or-nothing), at once or as a background job.

The file is read by :mod:`tournaments.services.registration_sheet`. A list of more than ``PAISAI_IMPORT_BACKGROUND_ROWS`` teams or
``PAISAI_IMPORT_BACKGROUND_CELLS`` cells is imported by a background job with progress (:func:`create_import_job`, run by tasks.py); a shorter
one at once. Either way nothing is imported when any row is bad, and every problem names
its row, its column and the team. A blank unit is a warning, not a refusal.

Two modes: ``add`` (every row a new team; a team already registered is a duplicate) and
``update`` (a re-import: new teams are added, registered teams whose row differs are
updated, unchanged ones listed; a registered team missing from the file is kept as it is).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments import permissions
from tournaments.models import Event, Job, Player, Team, Unit

from . import jobs
from .audit import log_action
from .registration import same_person, taken_names, team_state
from .registration_sheet import (
    TEMPLATE_EXAMPLE,
    ImportFileError,
    ReadRows,
    TeamRow,
    check_import_file,
    problem,
    read_team_rows,
)
from .xlsx_guard import SheetSize

IMPORT_JOB = "team-import"
BATCH = 2000  # rows per INSERT
MODES = ("add", "update")


@dataclass
class ImportReport:
    created: int = 0
    errors: list[tuple[int, str]] = field(default_factory=list)
    warnings: list[tuple[int, str]] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    def as_dict(self) -> dict:
        return {
            "created": self.created,
            "added": self.added,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "errors": self.errors,
            "warnings": self.warnings,
        }


def import_teams(event: Event, user, data: bytes, mode: str = "add") -> ImportReport:
    """All-or-nothing import: a file with any bad row imports nothing and reports every bad
    row. ``mode`` "update": new teams added, changed ones updated, unchanged ones listed."""
    permissions.require(user, event, "team.import")
    mode = check_mode(mode)
    read = read_team_rows(data)
    errors = check_rows(event, read, mode)
    if errors:
        return ImportReport(errors=errors, warnings=read.warnings)
    with transaction.atomic():
        report = apply_rows(event, user, read.rows, mode)
    report.warnings = read.warnings
    return report


def check_mode(mode: str) -> str:
    if mode not in MODES:
        raise ImportFileError(
            _("The import mode must be one of %(modes)s."), "mode", modes=", ".join(MODES)
        )
    return mode


def check_rows(event: Event, read: ReadRows, mode: str = "add") -> list:
    """Every bad row, in order: the file's own problems and clashes (duplicate names and
    seeds, one person on two teams, in the file or with teams already registered)."""
    columns = read.columns
    errors = list(read.errors)
    updating = mode == "update"
    registered = dict(Team.objects.filter(event=event).values_list("name", "seed"))
    file_names = {row.team for row in read.rows}
    taken = set() if updating else taken_names(event, file_names)
    # seeds held by teams the file does not change (an updated team's seed may move)
    held = {
        seed: name
        for name, seed in registered.items()
        if seed is not None and not (updating and name in file_names)
    }
    seen_names: dict[str, int] = {}
    seen_seeds: dict[int, int] = {}
    people: dict[str, list[tuple[str, str]]] = {}  # name -> [(team, ident)]
    for name, ident, team in Player.objects.filter(team__event=event).values_list(
        "name", "ident", "team__name"
    ):
        if not (updating and team in file_names):
            people.setdefault(name, []).append((team, ident))
    seen_players: dict[str, list[tuple[int, str]]] = {}
    for row in read.rows:
        problems = []
        if (row.team, row.unit, list(row.players)) == TEMPLATE_EXAMPLE:
            problems.append(
                problem(
                    columns,
                    "team",
                    row.team,
                    gettext("this is the template's example row: delete it before importing"),
                )
            )
        for order, (player, ident) in enumerate(zip(row.players, row.idents, strict=True), 1):
            key = f"player{order}"
            other = next(
                (t for t, i in people.get(player, []) if t != row.team and same_person(ident, i)),
                None,
            )
            if other is not None:
                text = gettext("%(player)s already plays for %(team)s") % {
                    "player": player,
                    "team": other,
                }
                problems.append(problem(columns, key, row.team, text))
            else:
                earlier = next(
                    (
                        r
                        for r, i in seen_players.get(player, [])
                        if r != row.row and same_person(ident, i)
                    ),
                    None,
                )
                if earlier is not None:
                    text = gettext("%(player)s is also on row %(row)d") % {
                        "player": player,
                        "row": earlier,
                    }
                    problems.append(problem(columns, key, row.team, text))
            seen_players.setdefault(player, []).append((row.row, ident))
        if row.team in taken:
            text = gettext("duplicate team: %(name)s is already registered") % {"name": row.team}
            problems.append(problem(columns, "team", row.team, text))
        elif row.team in seen_names:
            text = gettext("duplicate team: %(name)s is also on row %(row)d") % {
                "name": row.team,
                "row": seen_names[row.team],
            }
            problems.append(problem(columns, "team", row.team, text))
        if row.seed is not None and (row.seed in held or row.seed in seen_seeds):
            text = gettext("duplicate seed %(seed)d") % {"seed": row.seed}
            problems.append(problem(columns, "seed", row.team, text))
        seen_names.setdefault(row.team, row.row)
        if row.seed is not None:
            seen_seeds.setdefault(row.seed, row.row)
        if problems:
            errors.append((row.row, "; ".join(problems)))
    errors.sort()
    return errors


def apply_rows(event: Event, user, rows: list[TeamRow], mode: str) -> ImportReport:
    """Create the new teams and, in update mode, update the changed ones (inside the caller's
    transaction); each update logged with its before and after."""
    report = ImportReport()
    existing = {}
    if mode == "update":
        existing = {
            t.name: t
            for t in Team.objects.filter(event=event, name__in={r.team for r in rows})
            .select_related("unit")
            .prefetch_related("players")
        }
    new = [row for row in rows if row.team not in existing]
    create_teams(event, user, new)
    report.created, report.added = len(new), [row.team for row in new]
    changed = [(existing[row.team], row) for row in rows if row.team in existing]
    if any(team.seed is not None for team, _row in changed):  # let seeds move between teams
        Team.objects.filter(pk__in=[team.pk for team, _row in changed]).update(seed=None)
    for team, row in changed:
        before = team_state(team)
        wanted = {
            **before,
            "unit": row.unit,
            "seed": row.seed,
            "players": row.players,
            "idents": row.idents,
        }
        if wanted == before:
            report.unchanged.append(team.name)
            if team.seed is not None:
                Team.objects.filter(pk=team.pk).update(seed=team.seed)
            continue
        unit = None
        if row.unit:
            unit, _created = Unit.objects.get_or_create(event=event, name=row.unit)
        Team.objects.filter(pk=team.pk).update(unit=unit, seed=row.seed)
        for order, (name, ident) in enumerate(zip(row.players, row.idents, strict=True), 1):
            Player.objects.update_or_create(
                team=team, seat_order=order, defaults={"name": name, "ident": ident}
            )
        team.refresh_from_db()
        log_action(
            event,
            user,
            "team.update",
            team,
            data={"before": before, "after": team_state(team), "by": "import"},
        )
        report.updated.append(team.name)
    if mode == "update":
        log_action(
            event,
            user,
            "team.reimport",
            event,
            data={"added": report.added, "updated": report.updated, "unchanged": report.unchanged},
        )
    return report


def create_teams(event: Event, user, rows: list[TeamRow]) -> None:
    """Create the checked rows' units, teams and players (inside the caller's transaction)."""
    if not rows:
        return
    names = {row.team for row in rows}
    units = {u.name: u for u in Unit.objects.filter(event=event)}
    new_units = sorted({row.unit for row in rows if row.unit and row.unit not in units})
    Unit.objects.bulk_create([Unit(event=event, name=name) for name in new_units], batch_size=BATCH)
    if new_units:
        units = {u.name: u for u in Unit.objects.filter(event=event)}
    teams = Team.objects.bulk_create(
        [Team(event=event, name=r.team, unit=units.get(r.unit), seed=r.seed) for r in rows],
        batch_size=BATCH,
    )
    if not all(t.pk for t in teams):  # backends without RETURNING ids
        by_name = {t.name: t for t in Team.objects.filter(event=event, name__in=names)}
        teams = [by_name[r.team] for r in rows]
    Player.objects.bulk_create(
        [
            Player(team=team, name=name, seat_order=order, ident=ident)
            for team, row in zip(teams, rows, strict=True)
            for order, (name, ident) in enumerate(zip(row.players, row.idents, strict=True), 1)
        ],
        batch_size=BATCH,
    )
    log_action(event, user, "team.import", event, data={"teams": len(rows)})


# --- large imports as a background job ----------------------------------------------------


def background_rows() -> int:
    return int(settings.PAISAI_IMPORT_BACKGROUND_ROWS)


def background_cells() -> int:
    return int(settings.PAISAI_IMPORT_BACKGROUND_CELLS)


def in_background(size: SheetSize) -> bool:
    """A file imported by a background job rather than in the request: more than
    ``PAISAI_IMPORT_BACKGROUND_ROWS`` teams, or more than ``PAISAI_IMPORT_BACKGROUND_CELLS``
    cells (a 137 KB file of 1,999 rows × 854 cells took 25–30 s to parse in the request;
    2,000 teams of the template's 7 columns are 14,000 cells)."""
    return size.rows - 1 > background_rows() or size.cells > background_cells()


UPLOAD_NAME = "upload.xlsx"


def create_import_job(event: Event, user, data: bytes, mode: str = "add") -> Job:
    """Keep the (checked) file for a background import; ``tasks.start`` queues it."""
    job = Job.objects.create(
        event=event,
        kind=IMPORT_JOB,
        params={
            "language": translation.get_language() or settings.LANGUAGE_CODE,
            "mode": check_mode(mode),
        },
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    job.params = {**job.params, "upload": jobs.put_part(job, UPLOAD_NAME, data)}
    job.save(update_fields=["params"])
    return job


def run_import_job(job: Job) -> None:
    """Read, check and import the job's file; progress counts rows read. The teams and the
    job's "done" are written in one transaction: run again, it imports nothing twice."""
    data = jobs.read_part(job.params["upload"])
    mode = (job.params or {}).get("mode", "add")
    with translation.override(jobs.job_language(job)):
        try:
            total = max(1, check_import_file(data).rows - 1)
            jobs.mark_running(job, total)
            read = read_team_rows(
                data, progress=lambda n: jobs.set_progress(job.pk, min(n, total), total)
            )
        except ImportFileError as error:
            jobs.refuse(job.pk, str(error))
            return
        errors = check_rows(job.event, read, mode)
        if errors:
            Job.objects.filter(pk=job.pk).update(
                report={"created": 0, "errors": errors[:1000], "bad_rows": len(errors)}
            )
            jobs.refuse(
                job.pk,
                gettext("%(count)s rows have problems; nothing was imported.")
                % {"count": len(errors)},
            )
            return
        with transaction.atomic():
            report = apply_rows(job.event, job.created_by, read.rows, mode)
            stored = {"created": report.created, "errors": []}
            if mode == "update":
                stored |= {"updated": report.updated[:1000], "unchanged": len(report.unchanged)}
            if read.warnings:
                stored["warnings"] = read.warnings[:1000]
            Job.objects.filter(pk=job.pk).update(report=stored)
            jobs.finish(job, total)
    jobs.clear_workspace(job)
