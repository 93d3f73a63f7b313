"""The production recipe (`make serve` → scripts/serve.sh) runs the stuck-job sweep: with
its processes (gunicorn, a Celery worker kept running, Celery beat) a job whose worker is
killed as a whole mid-job (kill -9 of the worker and its pool: its messages stay
unacknowledged in Redis until the visibility timeout) finishes or fails within 2 minutes.

serve.sh used to start the worker without beat: nothing swept, and such a job waited for the
broker's visibility timeout (15 minutes) or for ever.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tournaments import tasks
from tournaments.exporters import exports

from .tournaments.test_tasks_worker import _big_round, _database_url, _reset_pool, redis_broker

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]
__all__ = ["redis_broker"]

ROOT = Path(__file__).resolve().parents[1]
PORT = int(os.environ.get("PAISAI_TEST_SERVE_PORT", "8517"))
LIMIT = 120


def _descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        try:
            text = Path(f"/proc/{todo.pop()}/task").iterdir()
            children = []
            for task in text:
                children += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
        found.extend(children)
        todo.extend(children)
    return found


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _workers(serve_pid: int) -> list[int]:
    """The Celery worker processes (the worker and its pool; not beat) under make serve."""
    return [pid for pid in _descendants(serve_pid) if " worker " in _command(pid)]


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


@pytest.fixture
def serve(redis_broker, tmp_path, media):
    """scripts/serve.sh on a port of its own, with the sweep's production settings short."""
    from config.celery import app

    env = {
        **{
            k: v
            for k, v in os.environ.items()
            if not k.startswith("PAISAI_DEV") and k != "DJANGO_ALLOW_ASYNC_UNSAFE"
        },  # e2e sets it
        "DATABASE_URL": _database_url(),
        "CACHE_URL": redis_broker.rsplit("/", 1)[0] + "/6",
        "CELERY_BROKER_URL": redis_broker,
        "SECRET_KEY": "serve-test-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "DEBUG": "0",
        # plain HTTP on the venue's network, as scripts/venue-box.sh writes var/paisai.env
        "CSRF_TRUSTED_ORIGINS": f"http://127.0.0.1:{PORT}",
        "SECURE_SSL_REDIRECT": "0",
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "SECURE_HSTS_SECONDS": "0",
        "GUNICORN_BIND": f"127.0.0.1:{PORT}",
        "GUNICORN_WORKERS": "1",
        "GUNICORN_THREADS": "2",
        "MEDIA_ROOT": str(media),
        "CELERY_BEAT_SCHEDULE_FILENAME": str(tmp_path / "celerybeat-schedule"),
        "PAISAI_SCORESHEET_CHUNK": "20",
        "PAISAI_JOB_STALE_SECONDS": "6",
        "PAISAI_JOB_SWEEP_SECONDS": "1",
    }
    log = open(tmp_path / "serve.log", "wb")  # noqa: SIM115
    process = subprocess.Popen(
        ["bash", "scripts/serve.sh"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: stopped as a whole below
    )
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=redis_broker, task_always_eager=False)
    _reset_pool(app)

    def tail() -> str:
        return (tmp_path / "serve.log").read_text(errors="replace")[-3000:]

    try:
        deadline = time.monotonic() + 180
        while not (_answers(PORT) and app.control.ping(timeout=0.5)):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail("make serve did not start: " + tail())
            time.sleep(0.5)
        process.tail = tail
        yield process
    finally:
        app.conf.update(saved)
        _reset_pool(app)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        log.close()


def test_make_serve_sweeps_a_job_whose_worker_was_killed(serve, make_event, make_user):
    tables = 600
    event = make_event(name="苏州掼蛋公开赛")
    _big_round(event, tables)
    job = exports.create_job(event, "scoresheets", {"round": "1"}, make_user(), "en")
    tasks.start(job)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status == "running" and 0 < job.progress:
            break
        time.sleep(0.05)
    assert job.status == "running" and 0 < job.progress < tables, (job.status, serve.tail())
    victims = _workers(serve.pid)
    assert len(victims) >= 3, victims  # the worker and its two pool processes
    for pid in victims:
        os.kill(pid, signal.SIGKILL)
    killed = time.monotonic()
    while time.monotonic() < killed + LIMIT:
        job.refresh_from_db()
        if job.status in ("done", "failed"):
            break
        time.sleep(0.5)
    took = time.monotonic() - killed
    assert job.status in ("done", "failed") and took < LIMIT, (job.status, serve.tail())
    assert job.status == "done", job.error
    assert job.restarts >= 1  # the beat's sweep queued it again
    assert job.progress == job.total == tables
    print(f"worker killed at {job.progress}/{tables}: done {took:.1f} s later")
