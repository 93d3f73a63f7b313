"""Background tasks (Celery ``shared_task``; eager in-process when no broker is configured).

Every task works for one :class:`Job` and derives from :class:`JobTask`, which does
the bookkeeping: it skips a job that is finished, failed or gone, touches the job's
heartbeat, and marks the job failed (with a message in its language) when the work raises.
Tasks are idempotent and acknowledged late: a worker process that dies mid-task leaves the
message to be delivered again (``acks_late`` + ``reject_on_worker_lost``), and running a
step again rewrites the same files. A worker killed as a whole is covered by
:func:`sweep_jobs` (Celery beat, every ``PAISAI_JOB_SWEEP_SECONDS``; also
``manage.py sweep_jobs``): it queues again the missing work of every job whose heartbeat
stopped.

Pages call :func:`start` (queue a job created by a service) and :func:`restart`.
"""

from __future__ import annotations

import logging

from celery import Task, shared_task
from django.conf import settings
from django.db import transaction
from kombu.exceptions import ChannelError, OperationalError

from tournaments.exporters import exports
from tournaments.models import Job
from tournaments.services import jobs, registration_import

logger = logging.getLogger("paisai.jobs")


class JobTask(Task):
    """Base of the job tasks: ``run(job, *args)`` gets the job, not its id."""

    acks_late = True
    reject_on_worker_lost = True
    ignore_result = True

    def __call__(self, job_id: int, *args, **kwargs):
        job = jobs.active_job(job_id)
        if job is None:
            return None
        try:
            with jobs.heartbeat(job_id, enabled=not self.app.conf.task_always_eager):
                return super().__call__(job, *args, **kwargs)
        except Exception as error:  # noqa: BLE001 - the job shows a message, the log the details
            jobs.fail(job_id, error)
            return None


@shared_task(base=JobTask)
def run_export_job(job: Job) -> None:
    """A one-piece export (a standings table, the prize list, a bracket …)."""
    exports.run_export(job)


@shared_task(base=JobTask)
def build_chunks(job: Job) -> None:
    """Plan the chunks of a chunked export (scoresheets, badges, table cards, the QR sheet)
    and queue the ones not rendered yet."""
    _total, count = exports.chunk_plan(job)
    missing = exports.missing_chunks(job, count)
    if not missing:
        exports.assemble(job.pk)
    for index in missing:
        render_export_chunk.apply_async((job.pk, index), queue=queue_name(job))


@shared_task(base=JobTask)
def render_export_chunk(job: Job, index: int) -> None:
    """Render one chunk; whoever records the last chunk assembles the file."""
    done, total = exports.render_chunk(job, index)
    if done >= total:
        exports.assemble(job.pk)


@shared_task(base=JobTask)
def import_teams(job: Job) -> None:
    """A long team list: read, check and import it with progress."""
    registration_import.run_import_job(job)


def first_task(job: Job):
    if job.kind == registration_import.IMPORT_JOB:
        return import_teams
    return build_chunks if exports.is_chunked(job.kind) else run_export_job


def queue_name(job: Job) -> str:
    """The queue of the job's tasks: public files (a job made for an event revision, asked for
    by anonymous pages) on their own queue, which workers read after the officials' (the
    default one), so an organiser's export never waits behind a backlog of public files."""
    if "revision" in (job.params or {}):
        return settings.PAISAI_PUBLIC_QUEUE
    return settings.CELERY_TASK_DEFAULT_QUEUE


def queue(job: Job) -> bool:
    """Queue the first task of the job (each picks up what is missing). A broker that cannot
    be reached or does not answer within ``PAISAI_PUBLISH_TIMEOUT`` leaves the job failed
    with the reason and a retry (:func:`jobs.not_queued`); the sweep queues it again once the
    broker answers."""
    task = first_task(job)
    if task.app.conf.task_always_eager and settings.PAISAI_JOBS_IN_THREAD:
        in_process(task, job.pk)
        return True
    try:
        task.apply_async((job.pk,), queue=queue_name(job))
    except Exception:  # noqa: BLE001 - whatever the broker did, the job must not wait for ever
        logger.exception("job %s could not be queued; the sweep will retry", job.pk)
        jobs.not_queued(job.pk)
        return False
    return True


_runner = None


def in_process(task, job_id: int) -> None:
    """Without a broker (``make run``) a job runs in a thread of this process, one job after
    another, after the request that asked for it has answered: no file is rendered inside a
    request (a public page's first GET rendered three exports in 8.4 s). The page shows the
    job's progress, or says the file is being made, as with a worker."""
    global _runner
    if _runner is None:
        from concurrent.futures import ThreadPoolExecutor

        _runner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="paisai-jobs")
    _runner.submit(_run_in_process, task, job_id)


def _run_in_process(task, job_id: int) -> None:
    from django.db import connections

    try:
        task.apply((job_id,))
    except Exception:  # noqa: BLE001 - JobTask marks the job failed; this is the log's line
        logger.exception("job %s failed in the in-process runner", job_id)
    finally:
        connections.close_all()


def wait_in_process(seconds: float = 60) -> None:
    """Wait for the in-process runner's queued jobs (tests, the demo loader)."""
    if _runner is None:
        return
    _runner.submit(lambda: None).result(timeout=seconds)


def start(job: Job) -> None:
    """Queue a job once the transaction that created it commits."""
    transaction.on_commit(lambda: queue(job))


def restart(job: Job) -> bool:
    """Retry a failed job (the work already done is kept); False if it had not failed."""
    if not jobs.retry(job):
        return False
    start(job)
    return True


def backlog(app) -> int:
    """Messages waiting in the job queues (0 when none, or when they cannot be read)."""
    if app.conf.task_always_eager:
        return 0
    waiting = 0
    try:
        with app.connection_for_read() as connection:
            for name in (app.conf.task_default_queue, settings.PAISAI_PUBLIC_QUEUE):
                try:
                    declared = connection.default_channel.queue_declare(name, passive=True)
                except ChannelError:  # Redis: an empty queue does not exist
                    continue
                waiting += declared.message_count
    except (OperationalError, OSError):
        return 0
    return waiting


@shared_task(bind=True, ignore_result=True)
def sweep_jobs(self) -> int:
    """Queue again every job whose worker died; returns how many. While messages wait in the
    queue the workers are busy and a job's next step may simply not have started yet: the
    sweep waits for the backlog to drain (a dead worker's messages are not in it)."""
    unqueued = jobs.claim_unqueued()  # the broker answers again: their first task now
    for job in unqueued:
        queue(job)
    if backlog(self.app):
        return len(unqueued)
    stale = jobs.claim_stale()
    for job in stale:
        queue(job)
    return len(unqueued) + len(stale)
