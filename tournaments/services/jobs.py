"""Background jobs (:class:`Job` rows): progress, heartbeat, failure, retry, and the
sweep that finds a job whose worker died.

The tasks that do a job's work (tournaments/tasks.py) keep everything about it in the
database, so any process can report its progress or see that it is stuck. Every step of a
job touches ``heartbeat_at``. A job still waiting or running whose heartbeat is older than
``PAISAI_JOB_STALE_SECONDS`` has lost its worker (a worker killed as a whole keeps its
unacknowledged messages in Redis until the broker's visibility timeout, an hour away):
:func:`claim_stale` hands it back to be queued again — each step is idempotent, so only the
missing work is redone — and after ``PAISAI_JOB_MAX_RESTARTS`` restarts marks it failed,
with a retry button on its page.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import connection
from django.db.models import F, Q
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from tournaments.errors import ExportError
from tournaments.models import Job


@dataclass(frozen=True)
class ExportFile:
    """A rendered file: what an exporter makes and a job stores."""

    filename: str
    content_type: str
    data: bytes


logger = logging.getLogger("paisai.jobs")
Status = Job.Status
ACTIVE = (Status.PENDING, Status.RUNNING)


def stale_after() -> timedelta:
    return timedelta(seconds=float(settings.PAISAI_JOB_STALE_SECONDS))


def max_restarts() -> int:
    return int(settings.PAISAI_JOB_MAX_RESTARTS)


def job_language(job: Job) -> str:
    return job.params.get("language") or settings.LANGUAGE_CODE


# what a job's params hold beside the exporter's own parameters
META_PARAMS = ("language", "revision")


def job_params(job: Job) -> dict:
    return {key: value for key, value in job.params.items() if key not in META_PARAMS}


# --- the job's files: through Django's storage API (STORAGES["default"]), never a path ------
# The web process and the workers may run on different hosts: an upload, a chunk and the
# finished file are written and read through ``default_storage`` (the local MEDIA_ROOT by
# default; an object store by settings alone), so no step assumes a shared disk.


def workspace(job: Job | int) -> str:
    """The storage folder of the job's parts (chunks, an upload)."""
    return f"exports/work/job-{getattr(job, 'pk', job)}"


def put_part(job: Job | int, name: str, data: bytes) -> str:
    """Write (or rewrite) one part of the job; returns its storage name."""
    path = f"{workspace(job)}/{name}"
    if default_storage.exists(path):
        default_storage.delete(path)
    return default_storage.save(path, ContentFile(data))


def read_part(path: str) -> bytes:
    with default_storage.open(path, "rb") as handle:
        return handle.read()


def clear_workspace(job: Job | int) -> None:
    """Delete the job's parts (they are not needed once its file is stored)."""
    folder = workspace(job)
    try:
        _dirs, files = default_storage.listdir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return
    for name in files:
        default_storage.delete(f"{folder}/{name}")


def active_job(job_id: int) -> Job | None:
    """The job if there is work left for it (touching its heartbeat), else None."""
    now = timezone.now()
    if not Job.objects.filter(pk=job_id, status__in=ACTIVE).update(heartbeat_at=now):
        return None
    return Job.objects.select_related("event").get(pk=job_id)


def touch(job_id: int) -> None:
    Job.objects.filter(pk=job_id, status__in=ACTIVE).update(heartbeat_at=timezone.now())


@contextlib.contextmanager
def heartbeat(job_id: int, enabled: bool = True):
    """While the block runs, touch the job's heartbeat every third of the stale time from a
    thread (its own database connection), so a long step (a big standings PDF on a busy
    machine) is never taken for a dead one."""
    if not enabled:
        yield
        return
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(stale_after().total_seconds() / 3):
                touch(job_id)
        finally:
            connection.close()

    thread = threading.Thread(target=beat, name=f"job-{job_id}-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def mark_running(job: Job, total: int) -> None:
    now = timezone.now()
    Job.objects.filter(pk=job.pk, status__in=ACTIVE).update(
        status=Status.RUNNING, total=total, heartbeat_at=now
    )
    job.status, job.total, job.heartbeat_at = Status.RUNNING, total, now


def set_progress(job_id: int, done: int, total: int) -> None:
    Job.objects.filter(pk=job_id, status=Status.RUNNING).update(
        progress=done, total=total, heartbeat_at=timezone.now()
    )


def save_result(job: Job, export: ExportFile) -> bool:
    """Store the file and mark the job done; False (nothing written) when it already is."""
    current = Job.objects.filter(pk=job.pk).values_list("status", "total", "report").first()
    if current is None or current[0] in (Status.DONE, Status.FAILED):
        return False
    job.total = current[1] or job.total or 1
    # the name the download gets (the storage may have to name the file otherwise)
    job.report = {**(current[2] or {}), "filename": export.filename}
    if job.file:
        job.file.delete(save=False)
    job.file.save(f"job-{job.pk}-{export.filename}", ContentFile(export.data), save=False)
    job.status, job.finished_at, job.error = Status.DONE, timezone.now(), ""
    job.progress = job.total
    job.heartbeat_at = job.finished_at
    job.save(
        update_fields=[
            "file",
            "status",
            "finished_at",
            "error",
            "progress",
            "total",
            "heartbeat_at",
            "report",
        ]
    )
    return True


def download_name(job: Job) -> str:
    """The file name a job's download gets."""
    return (job.report or {}).get("filename") or job.file.name.rsplit("/", 1)[-1].split("-", 2)[-1]


def finish(job: Job, total: int | None = None) -> None:
    """Mark a job that writes no file (an import) done."""
    now = timezone.now()
    total = job.total if total is None else total
    Job.objects.filter(pk=job.pk, status__in=ACTIVE).update(
        status=Status.DONE, progress=total, total=total, finished_at=now, heartbeat_at=now
    )


def failure_message(job: Job, error: Exception) -> str:
    with translation.override(job_language(job)):
        if isinstance(error, ExportError):
            return str(error.message)
        if job.kind == "team-import":
            return gettext("The import failed; it has been logged.")
        return gettext("The export failed; it has been logged.")


def refuse(job_id: int, message: str) -> None:
    """Mark the job failed for a reason its page shows: bad input, so no retry is offered."""
    job = Job.objects.filter(pk=job_id).first()
    if job is None:
        return
    Job.objects.filter(pk=job_id, status__in=ACTIVE).update(
        status=Status.FAILED,
        error=message,
        finished_at=timezone.now(),
        report={**job.report, "refused": True},
    )


def fail(job_id: int, error: Exception) -> None:
    """Mark the job failed with a message in its language (details go to the log)."""
    job = Job.objects.filter(pk=job_id).first()
    if job is None:
        return
    if isinstance(error, ExportError):  # the data refuse it: a retry would fail again
        refuse(job_id, failure_message(job, error))
        return
    logger.exception("job %s failed", job_id, exc_info=error)
    Job.objects.filter(pk=job_id, status__in=ACTIVE).update(
        status=Status.FAILED, error=failure_message(job, error), finished_at=timezone.now()
    )


def not_queued(job_id: int) -> None:
    """The job's first task could not be handed to the broker (Redis down or frozen): failed,
    with the reason and a retry on its page, never waiting for ever (issue 31). Flagged
    ``unqueued``: :func:`claim_unqueued` puts it back once the broker answers."""
    job = Job.objects.filter(pk=job_id).first()
    if job is None:
        return
    with translation.override(job_language(job)):
        message = gettext(
            "The job queue (Redis) did not answer, so the job has not started. It starts by "
            "itself once the queue answers again; or press Retry."
        )
    Job.objects.filter(pk=job_id, status__in=ACTIVE).update(
        status=Status.FAILED,
        error=message,
        finished_at=timezone.now(),
        report={**job.report, "unqueued": True},
    )


def claim_unqueued() -> list[Job]:
    """The jobs whose queueing failed, put back to waiting (one conditional UPDATE each, so
    two sweeps never both take one), to be queued again by the sweep."""
    claimed = []
    for job in Job.objects.filter(status=Status.FAILED, report__unqueued=True):
        report = {k: v for k, v in job.report.items() if k != "unqueued"}
        won = Job.objects.filter(pk=job.pk, status=Status.FAILED, report__unqueued=True).update(
            status=Status.PENDING,
            error="",
            finished_at=None,
            report=report,
            heartbeat_at=timezone.now(),
        )
        if won:
            job.refresh_from_db()
            logger.warning("job %s: queued again (its queueing had failed)", job.pk)
            claimed.append(job)
    return claimed


def _stale(cutoff) -> Q:
    return Q(status__in=ACTIVE) & Q(seen__lt=cutoff)


def claim_stale(now=None) -> list[Job]:
    """The jobs no worker has touched for ``stale_after()``, to be queued again.

    Each is claimed by one conditional UPDATE (its heartbeat moved to now, its restarts
    counted), so two sweeps at once never both restart it. A job restarted more than
    ``max_restarts()`` times is marked failed instead (its page offers a retry)."""
    now = now or timezone.now()
    cutoff = now - stale_after()
    candidates = (
        Job.objects.annotate(seen=Coalesce("heartbeat_at", "created_at"))
        .filter(_stale(cutoff))
        .values_list("pk", flat=True)
    )
    claimed = []
    for pk in list(candidates):
        won = (
            Job.objects.annotate(seen=Coalesce("heartbeat_at", "created_at"))
            .filter(_stale(cutoff), pk=pk)
            .update(heartbeat_at=now, restarts=F("restarts") + 1)
        )
        if not won:
            continue
        job = Job.objects.select_related("event").get(pk=pk)
        if job.restarts > max_restarts():
            with translation.override(job_language(job)):
                message = gettext(
                    "The job stopped %(count)s times without finishing (a worker died or was "
                    "restarted). Retry it once the workers are running."
                ) % {"count": job.restarts}
            Job.objects.filter(pk=pk, status__in=ACTIVE).update(
                status=Status.FAILED, error=message, finished_at=now
            )
            logger.error("job %s failed after %s restarts", pk, job.restarts - 1)
            continue
        logger.warning("job %s: no heartbeat since %s, queued again", pk, cutoff)
        claimed.append(job)
    return claimed


def can_retry(job: Job) -> bool:
    """A job that failed for its input (refused) would fail again."""
    return job.status == Status.FAILED and not job.report.get("refused")


def retry(job: Job) -> bool:
    """Put a failed job back to waiting (its work done so far is kept); False if it is not
    failed. The caller queues it."""
    if not can_retry(job):
        return False
    report = {k: v for k, v in job.report.items() if k != "unqueued"}
    updated = Job.objects.filter(pk=job.pk, status=Status.FAILED).update(
        status=Status.PENDING,
        error="",
        finished_at=None,
        restarts=0,
        heartbeat_at=timezone.now(),
        report=report,
    )
    job.refresh_from_db()
    return bool(updated)


def job_status(job: Job) -> dict:
    """What the job page shows and polls."""
    slug = job.event.slug
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
            reverse("tournaments:job-file", args=[slug, job.pk])
            if job.status == Status.DONE and job.file
            else None
        ),
        "retry": (
            reverse("tournaments:job-retry", args=[slug, job.pk]) if can_retry(job) else None
        ),
    }
