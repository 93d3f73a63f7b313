"""The scoresheet job on a real Celery worker (2 prefork processes) over the real Redis.

The worker and the test share the PostgreSQL test database (so: PostgreSQL only) and
MEDIA_ROOT. Mid-job one worker process is killed: its task is delivered again
(acks_late + reject_on_worker_lost) and the job still completes with every sheet.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.readers import pdf_pages
from tests.redis_server import die_with_this_process
from tournaments import tasks
from tournaments.exporters import exports
from tournaments.models import Job, Match, Player, Round, Team

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
TABLES = 40
CHUNK = 10  # four chunk tasks
DEADLINE = 50
# The sweep's thresholds for the worker under test: 6 s without a heartbeat (a running task
# beats every 2 s), swept every second (production: 30 s and 10 s; set these to measure with
# those).
STALE_SECONDS = os.environ.get("PAISAI_TEST_JOB_STALE_SECONDS", "6")
SWEEP_SECONDS = os.environ.get("PAISAI_TEST_JOB_SWEEP_SECONDS", "1")


def _database_url() -> str:
    from django.db import connection

    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(child) for child in text.split()]


def refuse_strangers(app, broker: str) -> None:
    """Fail at once, saying why, when a worker this test did not start consumes ``broker``:
    it would take the test's tasks, render into another MEDIA_ROOT and survive the kills."""
    answers = app.control.ping(timeout=0.5)
    if answers:
        names = ", ".join(name for answer in answers for name in answer)
        pytest.fail(f"a worker this test did not start consumes {broker} ({names}): stop it")


def _reset_pool(app) -> None:
    """Drop the producer pool so that the next task uses the broker now configured."""
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def redis_broker(private_redis):
    """A broker database of the test process's own Redis (tests/redis_server.py), emptied
    before and after: no queue a running site uses is touched."""
    import redis

    broker = f"{private_redis}/5"
    client = redis.Redis.from_url(broker)
    client.flushdb()
    yield broker
    client.flushdb()


@pytest.fixture
def start_worker(redis_broker, media, tmp_path):
    """Start a real worker (2 prefork processes and the beat that runs the job sweep); every
    worker started is stopped at the end."""
    from config.celery import app

    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "CELERY_BROKER_URL": redis_broker,
        "MEDIA_ROOT": str(media),
        "PAISAI_DEV": "1",
        "PAISAI_SCORESHEET_CHUNK": str(CHUNK),
        "CELERY_BEAT_SCHEDULE_FILENAME": str(tmp_path / "celerybeat-schedule"),
        "PAISAI_JOB_STALE_SECONDS": STALE_SECONDS,
        "PAISAI_JOB_SWEEP_SECONDS": SWEEP_SECONDS,
    }
    started: list[subprocess.Popen] = []
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=redis_broker, task_always_eager=False)
    _reset_pool(app)

    refuse_strangers(app, redis_broker)

    def start(chunk: int = CHUNK) -> subprocess.Popen:
        log = open(tmp_path / f"worker-{len(started)}.log", "wb")  # noqa: SIM115
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "-B",
                "--pool=prefork",
                "--concurrency=2",
                "--without-gossip",
                "--without-mingle",
                "-l",
                "warning",
            ],
            cwd=ROOT,
            env={**env, "PAISAI_SCORESHEET_CHUNK": str(chunk)},
            stdout=subprocess.DEVNULL,
            stderr=log,
            preexec_fn=die_with_this_process,
        )
        started.append(process)
        deadline = time.monotonic() + 30
        while not app.control.ping(timeout=0.5):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail("the Celery worker did not start: " + log_tail(len(started) - 1))
        return process

    def log_tail(index: int) -> str:
        return (tmp_path / f"worker-{index}.log").read_text(errors="replace")[-2000:]

    start.log_tail = log_tail
    try:
        yield start
    finally:
        app.conf.update(saved)
        _reset_pool(app)
        for process in started:  # nothing of theirs is kept: no warm shutdown (up to 10 s each)
            if process.poll() is None:
                kill_tree(process.pid)
                process.wait()


@pytest.fixture
def worker(start_worker):
    return start_worker()


def _descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        children = _children(todo.pop())
        found.extend(children)
        todo.extend(children)
    return found


def kill_tree(pid: int) -> list[int]:
    """``kill -9`` a worker and every process it started (its pool and its beat)."""
    victims = [pid, *_descendants(pid)]
    for victim in victims:
        try:
            os.kill(victim, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return victims


def _big_round(event, tables: int = TABLES) -> Round:
    teams = Team.objects.bulk_create(
        [Team(event=event, name=f"第{n}队·龙城") for n in range(1, 2 * tables + 1)]
    )
    Player.objects.bulk_create(
        [
            Player(team=team, name=f"{team.name}选手{seat}", seat_order=seat)
            for team in teams
            for seat in (1, 2)
        ]
    )
    rnd = Round.objects.create(event=event, number=1, status="published")
    Match.objects.bulk_create(
        [
            Match(round=rnd, table_number=t + 1, home=teams[2 * t], away=teams[2 * t + 1])
            for t in range(tables)
        ]
    )
    return rnd


def _busy_pool_process(app, worker) -> int | None:
    """A pool process of ``worker`` running a scoresheet chunk now (the worker's own answer;
    not the beat, also a child of the worker), or None."""
    from celery.app.control import Inspect

    active = Inspect(app=app, timeout=0.5, limit=1).active() or {}
    pool = _children(worker.pid)
    for running in active.values():
        for task in running:
            if task["name"].endswith("render_export_chunk") and task["worker_pid"] in pool:
                return task["worker_pid"]
    return None


def test_scoresheets_on_a_real_worker_survive_a_killed_worker_process(
    worker, start_worker, make_event, make_user
):
    from config.celery import app

    # 16 chunks over two processes, so that both are still rendering when the worker is asked
    # which of them is busy (its answer takes up to 0.5 s; four chunks could all be done by
    # then on a quiet machine)
    tables = 16 * CHUNK
    event = make_event(name="苏州掼蛋公开赛")
    _big_round(event, tables)
    job = exports.create_job(event, "scoresheets", {"round": "1"}, make_user(), "en")
    tasks.start(job)
    deadline = time.monotonic() + DEADLINE
    killed = False
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status in ("done", "failed"):
            break
        if not killed and job.status == "running" and job.progress < tables - 2 * CHUNK:
            busy = _busy_pool_process(app, worker)
            if busy:
                os.kill(busy, signal.SIGKILL)  # a worker process dies mid-chunk
                killed = True
        time.sleep(0.05)
    job.refresh_from_db()
    assert killed, "the job finished before a worker process could be killed"
    assert job.status == Job.Status.DONE, job.error or job.status
    # the chunk it was rendering was lost with it, and delivered again
    assert "WorkerLostError" in start_worker.log_tail(0)
    assert job.progress == job.total == tables
    pages = pdf_pages(job.file.read())
    assert len(pages) == tables
    assert "第1队·龙城" in pages[0] and f"第{2 * tables}队·龙城" in pages[-1]
    assert all("苏州掼蛋公开赛" in page for page in pages)


def test_worker_killed_mid_job_resumes(start_worker, make_event, make_user):
    """kill -9 of the worker AND its pool mid-job (its messages stay unacknowledged in Redis
    until the visibility timeout): once a new worker runs, the sweep finds the job without a
    heartbeat and queues its missing chunks; the job finishes with every sheet, well within
    2 minutes."""
    # enough chunks that the job is still running when the worker is killed: 30 chunks, each
    # with its own font subsetting (two small WeasyPrint renders), polled every 50 ms; the
    # worker is killed once the first chunk is done
    tables, chunk = 600, 20
    first = start_worker(chunk)
    event = make_event(name="苏州掼蛋公开赛")
    _big_round(event, tables)
    job = exports.create_job(event, "scoresheets", {"round": "1"}, make_user(), "en")
    tasks.start(job)
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status == "running" and 0 < job.progress:
            break
        time.sleep(0.05)
    assert job.status == "running" and 0 < job.progress < tables, (job.status, job.progress)
    victims = kill_tree(first.pid)
    first.wait()
    assert len(victims) >= 3  # the worker, its two pool processes (and its beat)
    time.sleep(1)
    job.refresh_from_db()
    stuck_at = job.progress
    assert job.status == "running" and stuck_at < tables

    start_worker(chunk)
    restarted = time.monotonic()
    requeued = None
    while time.monotonic() < restarted + 120:
        job.refresh_from_db()
        if requeued is None and job.restarts:
            requeued = time.monotonic() - restarted
        if job.status in ("done", "failed"):
            break
        time.sleep(0.2)
    took = time.monotonic() - restarted
    assert job.status == Job.Status.DONE, (job.status, job.error, job.progress)
    assert took < 120
    assert job.restarts == 1  # the sweep queued it once
    assert job.progress == job.total == tables
    reader = PdfReader(io.BytesIO(job.file.read()))  # the text of the first and last only
    assert len(reader.pages) == tables
    assert "第1队·龙城" in reader.pages[0].extract_text()
    assert f"第{2 * tables}队·龙城" in reader.pages[-1].extract_text()
    print(
        f"killed at {stuck_at}/{tables}; queued again {requeued:.1f} s and done {took:.1f} s "
        "after the new worker started"
    )
