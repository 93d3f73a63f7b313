"""Export jobs: start them, run them in the background with progress, hand out the file.

Small exports (xlsx, pairings, the archive) render at once on request. PDFs that can be
large (scoresheets of a round, standings PDF) run as an :class:`ExportJob`: the page polls
:func:`job_status` and offers the file when done.

Scoresheets are rendered in chunks of tables, one Celery task per chunk, so two worker
processes render in parallel. Each chunk is written to ``exports/work/job-<id>/`` under
MEDIA_ROOT; progress is the number of tables whose chunk file exists (so a chunk that is run
again after a worker restart is not counted twice), and whoever completes the last chunk
assembles the file. Every step can run again and rewrites the same files.
"""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from rules_engine.presets import forfeit_match_points
from tournaments.exporters import exporters
from tournaments.exporters import scoresheets as sheets_pdf
from tournaments.exporters.base import Exporter, ExportError, ExportFile
from tournaments.models import ExportJob, ResultVersion, Round, RoundSlot, Team, Tournament
from tournaments.standings.service import outcomes_for, rank_history

logger = logging.getLogger("paisai.exports")
JOB_KINDS = ("scoresheets", "standings-pdf")
Status = ExportJob.Status


def make_exporter(
    tournament: Tournament, identifier: str, params: dict | None = None, **extra
) -> Exporter:
    cls = exporters().get(identifier)
    if cls is None:
        raise ExportError(_("Unknown export “%(name)s”.") % {"name": identifier}, "kind")
    return cls(tournament, **extra, **(params or {}))


def render_now(tournament: Tournament, identifier: str, params: dict | None = None) -> ExportFile:
    return make_exporter(tournament, identifier, params).render()


# --- background jobs ----------------------------------------------------------------------


def start_job(
    tournament: Tournament, kind: str, params: dict, user, language: str | None = None
) -> ExportJob:
    """Check the parameters at once (ExportError), then queue the job after the commit."""
    if kind not in JOB_KINDS:
        raise ExportError(_("Unknown export “%(name)s”.") % {"name": kind}, "kind")
    make_exporter(tournament, kind, params)  # validates the parameters
    if kind == "scoresheets":
        rnd = tournament.rounds.get(number=int(params["round"]))
        if sheets_pdf.table_count(rnd) == 0:
            raise ExportError(
                _("Round %(number)s has no tables to print.") % {"number": rnd.number}, "round"
            )
    job = ExportJob.objects.create(
        tournament=tournament,
        kind=kind,
        params={
            **params,
            "language": language or translation.get_language() or settings.LANGUAGE_CODE,
        },
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    from tournaments import tasks

    task = tasks.build_scoresheets if kind == "scoresheets" else tasks.run_export_job
    transaction.on_commit(lambda: task.delay(job.pk))
    return job


def job_language(job: ExportJob) -> str:
    return job.params.get("language") or settings.LANGUAGE_CODE


def job_params(job: ExportJob) -> dict:
    return {key: value for key, value in job.params.items() if key != "language"}


def mark_running(job: ExportJob, total: int) -> None:
    ExportJob.objects.filter(pk=job.pk).exclude(status=Status.DONE).update(
        status=Status.RUNNING, total=total
    )


def set_progress(job_id: int, done: int, total: int) -> None:
    ExportJob.objects.filter(pk=job_id, status=Status.RUNNING).update(progress=done, total=total)


def save_result(job: ExportJob, export: ExportFile) -> None:
    """Store the file and mark the job done (running it again replaces the file)."""
    if job.file:
        job.file.delete(save=False)
    job.file.save(f"job-{job.pk}-{export.filename}", ContentFile(export.data), save=False)
    job.status, job.finished_at, job.error = Status.DONE, timezone.now(), ""
    job.progress = job.total or job.progress
    job.save(update_fields=["file", "status", "finished_at", "error", "progress"])


def fail(job_id: int, error: Exception) -> None:
    """Mark the job failed with a message in the job's language (details go to the log)."""
    job = ExportJob.objects.filter(pk=job_id).first()
    if job is None:
        return
    if not isinstance(error, ExportError):
        logger.exception("export job %s failed", job_id, exc_info=error)
    with translation.override(job_language(job)):
        message = (
            error.message
            if isinstance(error, ExportError)
            else _("The export failed; it has been logged.")
        )
    ExportJob.objects.filter(pk=job_id).exclude(status=Status.DONE).update(
        status=Status.FAILED, error=message, finished_at=timezone.now()
    )


def run_export(job: ExportJob) -> None:
    """A one-piece job (standings PDF): render in this process and store the file."""
    mark_running(job, 1)
    with translation.override(job_language(job)):
        exporter = make_exporter(
            job.tournament,
            job.kind,
            job_params(job),
            progress=lambda d, t: set_progress(job.pk, d, t),
        )
        save_result(job, exporter.render())


# --- scoresheets in chunks ----------------------------------------------------------------


def workspace(job: ExportJob | int) -> Path:
    return Path(settings.MEDIA_ROOT) / "exports" / "work" / f"job-{getattr(job, 'pk', job)}"


def chunk_path(job: ExportJob | int, index: int) -> Path:
    return workspace(job) / f"chunk-{index:05d}.pdf"


def chunk_size() -> int:
    """Tables per scoresheet task: setting PAISAI_SCORESHEET_CHUNK, else the environment."""
    default = os.environ.get("PAISAI_SCORESHEET_CHUNK", sheets_pdf.CHUNK_SIZE)
    return max(1, int(getattr(settings, "PAISAI_SCORESHEET_CHUNK", default)))


def job_round(job: ExportJob) -> Round:
    return Round.objects.select_related("tournament").get(
        tournament_id=job.tournament_id, number=int(job.params["round"])
    )


def chunk_plan(job: ExportJob) -> tuple[int, int]:
    """(tables, chunks) of a scoresheet job; also marks it running."""
    total = sheets_pdf.table_count(job_round(job))
    mark_running(job, total)
    return total, -(-total // chunk_size())


def missing_chunks(job: ExportJob, count: int) -> list[int]:
    return [index for index in range(count) if not chunk_path(job, index).exists()]


def render_chunk(job: ExportJob, index: int) -> int:
    """Render one chunk of tables to its file; returns the tables done so far."""
    size = chunk_size()
    rnd = job_round(job)
    with translation.override(job_language(job)):
        data = sheets_pdf.fields_pdf(sheets_pdf.load_sheets(rnd, index * size, (index + 1) * size))
    path = chunk_path(job, index)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(data)
    partial.replace(path)  # atomic: a chunk file is complete or absent
    total = sheets_pdf.table_count(rnd)
    count = -(-total // size)
    done = sum(min(size, total - i * size) for i in range(count) if chunk_path(job, i).exists())
    set_progress(job.pk, done, total)
    return done


def assemble_scoresheets(job_id: int) -> bool:
    """Merge the chunks once all exist; True when the job is done (now or before)."""
    with transaction.atomic():
        job = ExportJob.objects.select_for_update().get(pk=job_id)
        if job.status == Status.DONE:
            return True
        rnd = job_round(job)
        total = sheets_pdf.table_count(rnd)
        count = -(-total // chunk_size())
        if missing_chunks(job, count):
            return False
        parts = [chunk_path(job, index).read_bytes() for index in range(count)]
        with translation.override(job_language(job)):
            data = sheets_pdf.assemble(sheets_pdf.sheet_set(rnd).header(), parts)
            exporter = make_exporter(job.tournament, "scoresheets", job_params(job))
            save_result(job, ExportFile(exporter.filename(), exporter.content_type, data))
    shutil.rmtree(workspace(job_id), ignore_errors=True)
    return True


# --- what the page shows ------------------------------------------------------------------


def job_status(job: ExportJob) -> dict:
    slug = job.tournament.slug
    return {
        "id": job.pk,
        "kind": job.kind,
        "status": job.status,
        "status_label": str(job.get_status_display()),
        "progress": job.progress,
        "total": job.total,
        "percent": job.percent,
        "error": job.error,
        "download": (
            reverse("tournaments:export-job-file", args=[slug, job.pk])
            if job.status == Status.DONE and job.file
            else None
        ),
    }


# --- what the public sees -----------------------------------------------------------------


def current_round(tournament: Tournament) -> Round | None:
    """The latest round whose pairing is public (drafts are not)."""
    return tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()


def public_round(tournament: Tournament, number) -> Round | None:
    """A published round by number (from the URL), else the current one."""
    rounds = tournament.rounds.exclude(status=Round.Status.DRAFT)
    if number not in (None, "") and str(number).isdigit():
        found = rounds.filter(number=int(number)).first()
        if found is not None:
            return found
    return current_round(tournament)


def pairing_rows(rnd: Round, query: str = "") -> list[dict]:
    """The round's tables (byes last), filtered by a part of a team name."""
    matches = rnd.matches.select_related("home__unit", "away__unit").order_by(
        F("table_number").asc(nulls_last=True), "home__name"
    )
    query = (query or "").strip()
    if query:
        matches = matches.filter(Q(home__name__icontains=query) | Q(away__name__icontains=query))
    return [
        {
            "table": match.table_number,
            "home": match.home,
            "away": match.away,
            "search": f"{match.home.name} {match.away.name if match.away else ''}".lower(),
        }
        for match in matches
    ]


def team_history(team: Team) -> list[dict]:
    """Round by round: opponent, side, result, points and the rank after that round."""
    tournament = team.tournament
    slots = (
        RoundSlot.objects.filter(team=team)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round", "match__home", "match__away")
        .order_by("round__number")
    )
    counting = dict(
        ResultVersion.objects.filter(match__slots__team=team, is_counting=True).values_list(
            "match_id", "outcome"
        )
    )
    ranks = dict(
        zip(
            counted_round_numbers(tournament),
            rank_history(tournament).get(team.pk, []),
            strict=False,
        )
    )
    bye_points = forfeit_match_points(tournament.get_preset(), "NS")["EW"]
    rows = []
    for slot in slots:
        match, side = slot.match, slot.side
        row = {"round": slot.round.number, "side": side, "rank": ranks.get(slot.round.number)}
        if match.is_bye:
            row.update(opponent=None, result="bye", points=bye_points)
        else:
            row["opponent"] = match.away if side == "EW" else match.home
            row.update(_side_result(counting.get(match.pk), side))
        rows.append(row)
    return rows


def _side_result(outcome: dict | None, side: str) -> dict:
    points = (outcome or {}).get("match_points")
    if not isinstance(points, dict):
        return {"result": "", "points": None}
    winner = outcome.get("winner")
    result = "draw" if winner is None else ("win" if winner == side else "loss")
    return {"result": result, "points": points.get(side)}


def counted_round_numbers(tournament: Tournament) -> list[int]:
    """The rounds that have counted outcomes, in order (the rounds of ``rank_history``)."""
    return sorted({outcome.round_no for outcome in outcomes_for(tournament)})


def rank_chart(
    ranks: list[tuple[int, int]], teams: int, width: int = 640, height: int = 240
) -> dict:
    """Points of an SVG line chart of rank (1 at the top) over rounds."""
    pad = 32
    if not ranks:
        return {"width": width, "height": height, "points": [], "polyline": ""}
    span_x = max(1, len(ranks) - 1)
    span_y = max(1, teams - 1)
    points = []
    for index, (round_no, rank) in enumerate(ranks):
        x = pad + (width - 2 * pad) * index / span_x
        y = pad + (height - 2 * pad) * (rank - 1) / span_y
        points.append({"x": round(x, 1), "y": round(y, 1), "round": round_no, "rank": rank})
    return {
        "width": width,
        "height": height,
        "pad": pad,
        "bottom": height - pad,
        "right": width - pad,
        "teams": teams,
        "points": points,
        "polyline": " ".join(f"{p['x']},{p['y']}" for p in points),
    }


def clock(rnd: Round | None) -> dict:
    """The round clock for the projector: seconds left (None when not started)."""
    now = timezone.now()
    if rnd is None:
        return {
            "round": None,
            "status": None,
            "ends_at": None,
            "now": now.isoformat(),
            "remaining": None,
            "state": "",
            "text": clock_text(None),
        }
    remaining = None
    if rnd.ends_at is not None:
        remaining = max(0, int((rnd.ends_at - now).total_seconds()))
    state = ""
    if remaining == 0:
        state = "over"
    elif remaining is not None and remaining <= warning_seconds(rnd.tournament):
        state = "warning"
    return {
        "round": rnd.number,
        "status": rnd.status,
        "ends_at": rnd.ends_at.isoformat() if rnd.ends_at else None,
        "now": now.isoformat(),
        "remaining": remaining,
        "state": state,
        "text": clock_text(remaining),
    }


def warning_seconds(tournament) -> int:
    """The last minutes of a round in which referees warn the tables (a preset setting)."""
    return tournament.get_preset().warning_minutes * 60


def clock_text(seconds: int | None) -> str:
    """59:30, or 1:02:05 past an hour; --:-- when the clock has not started."""
    if seconds is None:
        return "--:--"
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"
