"""Public exports (standings, published pairings, unit standings, a bracket): one file per
event revision and language, asked for by the public pages and served from the public cache
(views/exports.py, views/public_pages.py). The jobs are exporters/exports.py's; this module
queues the missing one through tasks.py, above both, so exporters/exports.py (which the tasks
run) never imports the tasks (no import cycle, issue 29: tests/test_architecture.py).
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext_lazy as _

from tournaments import tasks
from tournaments.errors import Code, ServiceError
from tournaments.exporters import exports
from tournaments.models import Event, Job

ASK_SECONDS = 5  # a public export missing from the cache is looked for at most this often
BUSY_RETRY_SECONDS = 60  # "try again" after the cap on public jobs was reached
SHARE_TTL = 6 * 3600  # how long a revision's count of public jobs is kept


class PublicJobsBusy(ServiceError):
    """No new public job now: this address, or everybody, asked for this revision's share
    (``PAISAI_PUBLIC_JOBS_PER_CLIENT`` / ``PAISAI_PUBLIC_JOBS_PER_REVISION``)."""

    code = Code.THROTTLED
    retry_seconds = BUSY_RETRY_SECONDS


def per_client() -> int:
    return int(settings.PAISAI_PUBLIC_JOBS_PER_CLIENT)


def per_revision() -> int:
    return int(settings.PAISAI_PUBLIC_JOBS_PER_REVISION)


def _share_keys(event: Event, client: str) -> tuple[str, str]:
    base = f"paisai:public-jobs:{event.pk}:r{event.revision}"
    return base, f"{base}:{client or '-'}"


def _count(key: str) -> int:
    return int(cache.get(key) or 0)


def _add_one(key: str) -> None:
    if not cache.add(key, 1, SHARE_TTL):
        try:
            cache.incr(key)
        except ValueError:  # gone meanwhile
            cache.set(key, 1, SHARE_TTL)


def check_share(event: Event, client: str) -> None:
    """Refuse (:class:`PublicJobsBusy`) a new public job of the event's current revision when
    ``client`` (an address) or the revision has had its share: anonymous requests cannot
    fill the queue (issue 39: 200 GETs had queued 200 jobs)."""
    revision_key, client_key = _share_keys(event, client)
    if _count(client_key) >= per_client() or _count(revision_key) >= per_revision():
        raise PublicJobsBusy(
            _(
                "Many files of this event are being made just now, so this one is not "
                "started yet: try again in a minute."
            ),
            None,
        )


def count_share(event: Event, client: str) -> None:
    """One more public job of the current revision, for ``client`` and for everybody."""
    for key in _share_keys(event, client):
        _add_one(key)


def done_job(event: Event, kind: str, params: dict, language: str):
    """The finished job of this export at the current revision, from the database."""
    wanted = {**exports.clean_params(params), "language": language, "revision": event.revision}
    for job in Job.objects.filter(event=event, kind=kind, status=Job.Status.DONE).exclude(file="")[
        :20
    ]:
        if job.params == wanted:
            return job
    return None


def public_ready(event: Event, kind: str, params: dict, language: str, client: str = "") -> bool:
    """Is the file of the current revision there (one cache read)? If not, make sure a job
    is making it (at most one database look every few seconds per export; none beyond the
    client's and the revision's share of public jobs)."""
    if cache.get(exports.ready_key(event, kind, params, language)) is not None:
        return True
    try:
        return ensure_public_job(event, kind, params, language, client) is not None
    except PublicJobsBusy:  # the page says the file is being made
        return False


def public_file(event: Event, kind: str, params: dict, language: str, client: str = ""):
    """The finished job holding this export at the current revision, or None (a job is then
    on its way); :class:`PublicJobsBusy` when a job would be needed beyond the share."""
    job_id = cache.get(exports.ready_key(event, kind, params, language))
    if job_id is not None:
        job = Job.objects.filter(pk=job_id, status=Job.Status.DONE).first()
        if job is not None and job.file:
            return job
    return ensure_public_job(event, kind, params, language, client)


def ensure_public_job(event: Event, kind: str, params: dict, language: str, client: str = ""):
    """The finished job of the current revision if the database has one; else queue the job
    making it, unless one of the same export is on its way already (one at a time: while
    results come in the revision moves on faster than a big PDF renders; a later request
    asks again). Looks at most once every few seconds per export. Returns a finished job
    (without a broker the job runs here) or None."""
    key = exports.ready_key(event, kind, params, language)
    if not cache.add(f"{key}:asked", 1, ASK_SECONDS):
        return None
    job = done_job(event, kind, params, language)
    mirror = bool(settings.PAISAI_MIRROR_OF)  # read-only: files come from the venue
    if (
        job is None
        and not mirror
        and exports.active_job_like(event, kind, params, language) is None
    ):
        try:
            check_share(event, client)
        except PublicJobsBusy:
            cache.delete(f"{key}:asked")  # the next request asks again
            raise
        job = exports.create_job(event, kind, params, None, language, revision=event.revision)
        count_share(event, client)
        tasks.start(job)
        job.refresh_from_db()
    if job is None or job.status != Job.Status.DONE or not job.file:
        return None
    cache.set(key, job.pk, exports.READY_TTL)
    return job
