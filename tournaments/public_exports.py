"""Public exports (standings, published pairings, unit standings, a bracket): one file per
event revision and language, asked for by the public pages and served from the public cache
(views/exports.py, views/public_pages.py). The jobs are services/exports.py's; this module
queues the missing one through tasks.py, above both, so services/exports.py (which the tasks
run) never imports the tasks (no import cycle, issue 29: tests/test_architecture.py).
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache

from tournaments import tasks
from tournaments.models import Event, Job
from tournaments.services import exports

ASK_SECONDS = 5  # a public export missing from the cache is looked for at most this often


def done_job(event: Event, kind: str, params: dict, language: str):
    """The finished job of this export at the current revision, from the database."""
    wanted = {**exports.clean_params(params), "language": language, "revision": event.revision}
    for job in Job.objects.filter(event=event, kind=kind, status=Job.Status.DONE).exclude(file="")[
        :20
    ]:
        if job.params == wanted:
            return job
    return None


def public_ready(event: Event, kind: str, params: dict, language: str) -> bool:
    """Is the file of the current revision there (one cache read)? If not, make sure a job
    is making it (at most one database look every few seconds per export)."""
    if cache.get(exports.ready_key(event, kind, params, language)) is not None:
        return True
    return ensure_public_job(event, kind, params, language) is not None


def public_file(event: Event, kind: str, params: dict, language: str):
    """The finished job holding this export at the current revision, or None (a job is then
    on its way)."""
    job_id = cache.get(exports.ready_key(event, kind, params, language))
    if job_id is not None:
        job = Job.objects.filter(pk=job_id, status=Job.Status.DONE).first()
        if job is not None and job.file:
            return job
    return ensure_public_job(event, kind, params, language)


def ensure_public_job(event: Event, kind: str, params: dict, language: str):
    """The finished job of the current revision if the database has one; else queue the job
    making it, unless one of the same export is on its way already (one at a time: while
    results come in the revision moves on faster than a big PDF renders; a later request
    asks again). Looks at most once every few seconds per export. Returns a finished job
    (without a broker the job runs here) or None."""
    key = exports.ready_key(event, kind, params, language)
    if not cache.add(f"{key}:asked", 1, ASK_SECONDS):
        return None
    job = done_job(event, kind, params, language)
    mirror = bool(getattr(settings, "PAISAI_MIRROR_OF", ""))  # read-only: files come from the venue
    if (
        job is None
        and not mirror
        and exports.active_job_like(event, kind, params, language) is None
    ):
        job = exports.create_job(event, kind, params, None, language, revision=event.revision)
        tasks.start(job)
        job.refresh_from_db()
    if job is None or job.status != Job.Status.DONE or not job.file:
        return None
    cache.set(key, job.pk, exports.READY_TTL)
    return job
