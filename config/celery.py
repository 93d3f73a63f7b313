"""Celery application. Apps define tasks with ``shared_task`` and never import this module."""

import os
import sys
import tempfile
from pathlib import Path

from celery import Celery
from celery.signals import celeryd_init
from celery.worker.consumer import Consumer as BaseConsumer
from kombu.transport import TRANSPORT_ALIASES

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# redis:// through the repaired transport (config/broker.py)
TRANSPORT_ALIASES["redis"] = "config.broker:Transport"

app = Celery("paisai")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class Consumer(BaseConsumer):
    """The worker's consumer without gossip, mingle and broker heartbeats, whatever the command
    line says (settings: CELERY_WORKER_CONSUMER). They serve clusters of workers watching
    each other, which paisai does not use (jobs have their own heartbeats and sweep), and
    their restart after a lost broker connection crashed the worker: "Unrecoverable error:
    AttributeError('NoneType' object has no attribute 'hostname')" when Redis restarted
    (issue 31; kombu#582, celery#8091)."""

    def __init__(self, *args, worker_options=None, **kwargs):
        worker_options = {
            **(worker_options or {}),
            "without_gossip": True,
            "without_mingle": True,
            "without_heartbeat": True,
        }
        super().__init__(*args, worker_options=worker_options, **kwargs)


class BeatScheduleError(Exception):
    """The embedded beat cannot keep its schedule file (the message says where and why)."""


def prepare_beat_schedule(filename) -> Path:
    """The beat schedule file's folder, made if missing and checked writable; the file's
    path. Beat keeps the time of each periodic task's last run in that file; when it could
    not be written (a fresh clone without ``var/``, a read-only folder) the beat thread
    died silently inside the worker and the stuck-job sweep never ran (issue 35)."""
    path = Path(filename).expanduser().resolve()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # shelve may add a suffix (.db, .dat, .dir): probe the folder with a file of its own
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".beat-probe-"):
            pass
    except OSError as exc:
        raise BeatScheduleError(
            f"celery beat cannot write its schedule file {path} "
            f"({exc.strerror or exc}: {exc.filename or path.parent}). "
            "Set CELERY_BEAT_SCHEDULE_FILENAME to a writable path "
            "(or run the worker without -B)."
        ) from exc
    for existing in path.parent.glob(path.name + "*"):
        if existing.is_file() and not os.access(existing, os.W_OK):
            raise BeatScheduleError(
                f"celery beat cannot write its schedule file {existing}: permission denied. "
                "Set CELERY_BEAT_SCHEDULE_FILENAME to a writable path "
                "(or run the worker without -B)."
            )
    return path


@celeryd_init.connect
def _check_beat_schedule(sender=None, conf=None, options=None, **kwargs):
    """A worker started with -B refuses to start, with the reason, when its beat could not
    keep the schedule file (celery catches a receiver's Exception, so this exits)."""
    options = options or {}
    if not options.get("beat"):
        return
    try:
        prepare_beat_schedule(options.get("schedule_filename") or conf.beat_schedule_filename)
    except BeatScheduleError as exc:
        print(f"ERROR: {exc}", file=sys.stderr)
        raise SystemExit(1) from exc
