"""Exports: render the small ones at once, and do the work of the background export jobs.

Small exports (xlsx, pairings, the archive) render at once on request. PDFs that can be
large (scoresheets of a round, standings PDF) run as an :class:`ExportJob`: the tasks
(tournaments/tasks.py) call the functions here, the job's bookkeeping is services/jobs.py,
and the page polls the job's status and offers the file when done.

Scoresheets are rendered in chunks of tables, one Celery task per chunk, so two worker
processes render in parallel. Each chunk is written to ``exports/work/job-<id>/`` under
MEDIA_ROOT; progress is the number of tables whose chunk file exists (so a chunk that is run
again after a worker restart is not counted twice), and whoever completes the last chunk
assembles the file. Every step can run again and rewrites the same files.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from tournaments.exporters import exporters
from tournaments.exporters import scoresheets as sheets_pdf
from tournaments.exporters.base import Exporter, ExportError, ExportFile
from tournaments.models import ExportJob, Round, Tournament

from . import jobs

JOB_KINDS = ("scoresheets", "standings-pdf")


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


def create_job(
    tournament: Tournament, kind: str, params: dict, user, language: str | None = None
) -> ExportJob:
    """Check the parameters at once (ExportError), then create the job; ``tasks.start``
    queues it."""
    if kind not in JOB_KINDS:
        raise ExportError(_("Unknown export “%(name)s”.") % {"name": kind}, "kind")
    make_exporter(tournament, kind, params)  # validates the parameters
    if kind == "scoresheets":
        rnd = tournament.rounds.get(number=int(params["round"]))
        if sheets_pdf.table_count(rnd) == 0:
            raise ExportError(
                _("Round %(number)s has no tables to print.") % {"number": rnd.number}, "round"
            )
    return ExportJob.objects.create(
        tournament=tournament,
        kind=kind,
        params={
            **params,
            "language": language or translation.get_language() or settings.LANGUAGE_CODE,
        },
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )


def run_export(job: ExportJob) -> None:
    """A one-piece job (standings PDF): render in this process and store the file."""
    jobs.mark_running(job, 1)
    with translation.override(jobs.job_language(job)):
        exporter = make_exporter(
            job.tournament,
            job.kind,
            jobs.job_params(job),
            progress=lambda d, t: jobs.set_progress(job.pk, d, t),
        )
        jobs.save_result(job, exporter.render())


# --- scoresheets in chunks ----------------------------------------------------------------


def chunk_path(job: ExportJob | int, index: int) -> Path:
    return jobs.workspace(job) / f"chunk-{index:05d}.pdf"


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
    jobs.mark_running(job, total)
    return total, -(-total // chunk_size())


def missing_chunks(job: ExportJob, count: int) -> list[int]:
    return [index for index in range(count) if not chunk_path(job, index).exists()]


def render_chunk(job: ExportJob, index: int) -> tuple[int, int]:
    """Render one chunk of tables to its file; returns (tables done so far, tables)."""
    size = chunk_size()
    rnd = job_round(job)
    with translation.override(jobs.job_language(job)):
        data = sheets_pdf.fields_pdf(sheets_pdf.load_sheets(rnd, index * size, (index + 1) * size))
    path = chunk_path(job, index)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(data)
    partial.replace(path)  # atomic: a chunk file is complete or absent
    total = sheets_pdf.table_count(rnd)
    count = -(-total // size)
    done = sum(min(size, total - i * size) for i in range(count) if chunk_path(job, i).exists())
    jobs.set_progress(job.pk, done, total)
    return done, total


def assemble_scoresheets(job_id: int) -> bool:
    """Merge the chunks once all exist; True when the job is done (now or before)."""
    with transaction.atomic():
        job = ExportJob.objects.select_for_update().get(pk=job_id)
        if job.status == ExportJob.Status.DONE:
            return True
        rnd = job_round(job)
        total = sheets_pdf.table_count(rnd)
        count = -(-total // chunk_size())
        if missing_chunks(job, count):
            return False
        parts = [chunk_path(job, index).read_bytes() for index in range(count)]
        with translation.override(jobs.job_language(job)):
            data = sheets_pdf.assemble(sheets_pdf.sheet_set(rnd).header(), parts)
            exporter = make_exporter(job.tournament, "scoresheets", jobs.job_params(job))
            jobs.save_result(job, ExportFile(exporter.filename(), exporter.content_type, data))
    shutil.rmtree(jobs.workspace(job_id), ignore_errors=True)
    return True
