"""Background tasks (Celery ``shared_task``; eager in-process when no broker is configured).

Every task is idempotent and acknowledged late: a worker that dies mid-task leaves the
message to be delivered again (``acks_late`` + ``reject_on_worker_lost``), and running a
step again rewrites the same files. Progress lives in the database (ExportJob), so any
process can report it.
"""

from __future__ import annotations

from celery import shared_task

from tournaments.models import ExportJob
from tournaments.services import exports

TASK_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


def _job(job_id: int) -> ExportJob | None:
    job = ExportJob.objects.select_related("tournament").filter(pk=job_id).first()
    if job is None or job.status in (ExportJob.Status.DONE, ExportJob.Status.FAILED):
        return None
    return job


@shared_task(**TASK_OPTIONS)
def run_export_job(job_id: int) -> None:
    job = _job(job_id)
    if job is None:
        return
    try:
        exports.run_export(job)
    except Exception as error:  # noqa: BLE001 - the job shows a message, the log the details
        exports.fail(job_id, error)


@shared_task(**TASK_OPTIONS)
def build_scoresheets(job_id: int) -> None:
    """Plan the chunks of a scoresheet job and queue the ones not rendered yet."""
    job = _job(job_id)
    if job is None:
        return
    try:
        _total, count = exports.chunk_plan(job)
        missing = exports.missing_chunks(job, count)
        if not missing:
            exports.assemble_scoresheets(job_id)
        for index in missing:
            render_scoresheet_chunk.delay(job_id, index)
    except Exception as error:  # noqa: BLE001
        exports.fail(job_id, error)


@shared_task(**TASK_OPTIONS)
def render_scoresheet_chunk(job_id: int, index: int) -> None:
    """Render one chunk; whoever finishes the last chunk assembles the file."""
    job = _job(job_id)
    if job is None:
        return
    try:
        done = exports.render_chunk(job, index)
        if done >= exports.sheets_pdf.table_count(exports.job_round(job)):
            exports.assemble_scoresheets(job_id)
    except Exception as error:  # noqa: BLE001
        exports.fail(job_id, error)
