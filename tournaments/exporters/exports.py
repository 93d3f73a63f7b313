"""Exports: every export is a background job (pretix's rule), never rendered in a request.

One path for every exporter (tournaments/exporters/): a page asks for an export, a job is
created (:func:`create_job`, the parameters checked at once) and queued (tournaments/tasks.py);
the job page polls its progress and offers the file once it is stored. The job's bookkeeping
is services/jobs.py.

- A one-piece export (a standings table, the prize list) is rendered by one task.
- A :class:`ChunkedExporter` (scoresheets, team badges, table cards, the QR sheet) is rendered
  in chunks of items, one task a chunk, so the worker processes render in parallel; each chunk
  is written through the storage API (``exports/work/job-<id>/``) and recorded on the job
  (``report["parts"]``) in one locked update, so a chunk that runs again after a worker
  restart is counted once; progress is the number of items in recorded chunks, and whoever
  records the last chunk assembles the file (what every page shares drawn once).
- A public export (standings, published pairings, unit standings, a bracket) is made once per
  event revision and language (tournaments/public_exports.py, which queues its jobs through
  tasks.py: tasks import this module, so this module never imports tasks) and served from the
  public cache with an ETag (views/exports.py).

Every step can run again and rewrites the same files.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from tournaments import glossary
from tournaments.errors import ExportError
from tournaments.exporters import exporters
from tournaments.models import Event, Job
from tournaments.services import jobs
from tournaments.services.jobs import ExportFile

from .base import ChunkedExporter, Exporter

READY_TTL = 3600  # how long "the file of revision r is ready" is remembered in the cache


def make_exporter(event: Event, identifier: str, params: dict | None = None, **extra) -> Exporter:
    cls = exporters().get(identifier)
    if cls is None:
        raise ExportError(_("Unknown export “%(name)s”."), "kind", name=identifier)
    return cls(event, **extra, **(params or {}))


def job_exporter(job: Job, **extra) -> Exporter:
    return make_exporter(job.event, job.kind, jobs.job_params(job), **extra)


def render_now(event: Event, identifier: str, params: dict | None = None) -> ExportFile:
    """Render in this process (a job's task, a test, a bench): never from a web request."""
    return make_exporter(event, identifier, params).render()


def label(kind: str) -> str:
    """What a job's export is called on the pages (the glossary's words)."""
    return glossary.word(glossary.EXPORT_KINDS, kind)


def content_type(kind: str) -> str:
    cls = exporters().get(kind)
    return cls.content_type if cls is not None else "application/octet-stream"


def is_chunked(kind: str) -> bool:
    cls = exporters().get(kind)
    return cls is not None and issubclass(cls, ChunkedExporter)


# --- jobs ----------------------------------------------------------------------------------


def clean_params(params: dict) -> dict:
    """The exporter's parameters as a job keeps them (strings, no empty ones)."""
    return {key: str(value) for key, value in params.items() if value not in (None, "")}


def create_job(
    event: Event,
    kind: str,
    params: dict,
    user,
    language: str | None = None,
    revision: int | None = None,
) -> Job:
    """Check the parameters at once (ExportError), then create the job; ``tasks.start``
    queues it."""
    params = clean_params(params)
    make_exporter(event, kind, params).check()  # the parameters, then the data
    meta = {"language": language or translation.get_language() or settings.LANGUAGE_CODE}
    if revision is not None:
        meta["revision"] = revision
    return Job.objects.create(
        event=event,
        kind=kind,
        params={**params, **meta},
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )


def active_job_like(event: Event, kind: str, params: dict, language: str):
    """A job of the same export still waiting or running (a second click joins it)."""
    wanted = {**clean_params(params), "language": language}
    for job in Job.objects.filter(event=event, kind=kind, status__in=jobs.ACTIVE)[:20]:
        if {k: v for k, v in job.params.items() if k != "revision"} == wanted:
            return job
    return None


def request_job(event: Event, kind: str, params: dict, user, language: str):
    """An official's export: the same export's running job, else a new job; (job, created)."""
    job = active_job_like(event, kind, params, language)
    if job is not None:
        return job, False
    return create_job(event, kind, params, user, language), True


# --- public exports: one file per event revision ---------------------------------------------


def ready_key(
    event: Event, kind: str, params: dict, language: str, revision: int | None = None
) -> str:
    asked = "&".join(f"{k}={v}" for k, v in sorted(clean_params(params).items()))
    revision = event.revision if revision is None else revision
    return f"paisai:export-ready:{event.pk}:{kind}:{asked}:{language}:r{revision}"


def remember_public(job: Job) -> None:
    """A finished public job: requests of its revision find it with one cache read, and the
    files of older revisions of the same export are deleted (but the one before, which a
    download may still be reading)."""
    revision = job.params.get("revision")
    if revision is None:
        return
    key = ready_key(job.event, job.kind, jobs.job_params(job), jobs.job_language(job), revision)
    cache.set(key, job.pk, READY_TTL)
    same = {k: v for k, v in job.params.items() if k != "revision"}
    older = [
        old
        for old in Job.objects.filter(
            event_id=job.event_id,
            kind=job.kind,
            status=Job.Status.DONE,
            pk__lt=job.pk,
            params__has_key="revision",
        ).order_by("-pk")[:50]
        if {k: v for k, v in old.params.items() if k != "revision"} == same
    ]
    for old in older[1:]:
        if old.file:
            old.file.delete(save=False)
        old.delete()


# --- one-piece exports -----------------------------------------------------------------------


def run_export(job: Job) -> None:
    """Render in this process and store the file."""
    jobs.mark_running(job, 1)
    with translation.override(jobs.job_language(job)):
        exporter = job_exporter(job, progress=lambda d, t: jobs.set_progress(job.pk, d, t))
        if jobs.save_result(job, exporter.render()):
            remember_public(job)


# --- exports in chunks ---------------------------------------------------------------------


def chunk_size(exporter: ChunkedExporter) -> int:
    """Items per task: setting PAISAI_EXPORT_CHUNK (scoresheets: PAISAI_SCORESHEET_CHUNK, read
    first), else the exporter's own."""
    own = settings.PAISAI_SCORESHEET_CHUNK if exporter.identifier == "scoresheets" else ""
    for value in (own, settings.PAISAI_EXPORT_CHUNK):
        if value:
            unit = exporter.chunk_unit  # whole pages (10 badges to a page)
            return max(1, -(-int(value) // unit)) * unit
    return exporter.chunk_size


def chunk_plan(job: Job) -> tuple[int, int]:
    """(items, chunks) of a chunked job; also marks it running with its item count."""
    exporter = job_exporter(job)
    total = job.total if job.status == Job.Status.RUNNING and job.total else None
    if total is None:
        total = exporter.item_count()
        exporter.check_items(total)
        jobs.mark_running(job, total)
    return total, exporter.chunk_count(total, chunk_size(exporter))


def recorded_parts(job: Job) -> dict[str, str]:
    return dict((job.report or {}).get("parts", {}))


def missing_chunks(job: Job, count: int) -> list[int]:
    parts = recorded_parts(job)
    return [index for index in range(count) if str(index) not in parts]


def _done_items(parts: dict, total: int, size: int) -> int:
    return sum(min(size, total - int(index) * size) for index in parts if int(index) * size < total)


def render_chunk(job: Job, index: int) -> tuple[int, int]:
    """Render one chunk of items and record it; returns (items done so far, items)."""
    exporter = job_exporter(job)
    size = chunk_size(exporter)
    total = job.total or exporter.item_count()
    with translation.override(jobs.job_language(job)):
        data = exporter.render_chunk(index * size, min(total, (index + 1) * size))
    name = jobs.put_part(job, f"chunk-{index:05d}.{exporter.extension}", data)
    with transaction.atomic():
        locked = Job.objects.select_for_update().get(pk=job.pk)
        parts = {**recorded_parts(locked), str(index): name}
        Job.objects.filter(pk=job.pk).update(report={**(locked.report or {}), "parts": parts})
    done = _done_items(parts, total, size)
    jobs.set_progress(job.pk, done, total)
    return done, total


def assemble(job_id: int) -> bool:
    """Merge the chunks once all are recorded; True when the job is done (now or before)."""
    with transaction.atomic():
        job = Job.objects.select_for_update().select_related("event").get(pk=job_id)
        if job.status == Job.Status.DONE:
            return True
        exporter = job_exporter(job)
        count = exporter.chunk_count(job.total, chunk_size(exporter))
        if missing_chunks(job, count):
            return False
        parts = recorded_parts(job)
        data = [jobs.read_part(parts[str(index)]) for index in range(count)]
        with translation.override(jobs.job_language(job)):
            export = ExportFile(exporter.filename(), exporter.content_type, exporter.assemble(data))
            jobs.save_result(job, export)
    jobs.clear_workspace(job_id)
    return True


assemble_scoresheets = assemble  # the name the first chunked export had
