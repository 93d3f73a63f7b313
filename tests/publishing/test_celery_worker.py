"""The scoresheet job on a real Celery worker (2 prefork processes) over the real Redis.

The worker and the test share the PostgreSQL test database (so: PostgreSQL only) and
MEDIA_ROOT. Mid-job one worker process is killed: its task is delivered again
(acks_late + reject_on_worker_lost) and the job still completes with every sheet.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tournaments.models import ExportJob, Match, Player, Round, Team
from tournaments.services import exports

from .helpers import pdf_pages, pdf_text

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
BROKER = os.environ.get("PAISAI_TEST_BROKER", "redis://127.0.0.1:6379/5")
TABLES = 40
CHUNK = 10  # four chunk tasks
DEADLINE = 50


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


def _reset_pool(app) -> None:
    """Drop the producer pool so that the next task uses the broker now configured."""
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def redis_broker():
    import redis

    client = redis.Redis.from_url(BROKER)
    try:
        client.ping()
    except redis.exceptions.ConnectionError:
        pytest.fail(f"Redis is not running at {BROKER}")
    client.flushdb()
    yield BROKER
    client.flushdb()


@pytest.fixture
def worker(redis_broker, media):
    from config.celery import app

    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "CELERY_BROKER_URL": redis_broker,
        "MEDIA_ROOT": str(media),
        "PAISAI_DEV": "1",
        "PAISAI_SCORESHEET_CHUNK": str(CHUNK),
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=prefork",
            "--concurrency=2",
            "--without-gossip",
            "--without-mingle",
            "-l",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=redis_broker, task_always_eager=False)
    _reset_pool(app)
    try:
        deadline = time.monotonic() + 30
        while not app.control.ping(timeout=0.5):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(
                    "the Celery worker did not start: " + process.stderr.read().decode()[-2000:]
                )
        yield process
    finally:
        app.conf.update(saved)
        _reset_pool(app)
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _big_round(tournament) -> Round:
    teams = Team.objects.bulk_create(
        [Team(tournament=tournament, name=f"第{n}队·龙城") for n in range(1, 2 * TABLES + 1)]
    )
    Player.objects.bulk_create(
        [
            Player(team=team, name=f"{team.name}选手{seat}", seat_order=seat)
            for team in teams
            for seat in (1, 2)
        ]
    )
    rnd = Round.objects.create(tournament=tournament, number=1, status="published")
    Match.objects.bulk_create(
        [
            Match(round=rnd, table_number=t + 1, home=teams[2 * t], away=teams[2 * t + 1])
            for t in range(TABLES)
        ]
    )
    return rnd


def test_scoresheets_on_a_real_worker_survive_a_killed_worker_process(
    worker, make_tournament, make_user
):
    tournament = make_tournament(name="苏州掼蛋公开赛")
    _big_round(tournament)
    job = exports.start_job(tournament, "scoresheets", {"round": "1"}, make_user(), "en")
    deadline = time.monotonic() + DEADLINE
    killed = False
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status in ("done", "failed"):
            break
        if not killed and job.status == "running" and job.progress < TABLES:
            children = _children(worker.pid)
            if children:
                os.kill(children[0], signal.SIGKILL)  # a worker process dies mid-job
                killed = True
        time.sleep(0.2)
    job.refresh_from_db()
    assert killed, "the job finished before a worker process could be killed"
    assert job.status == ExportJob.Status.DONE, job.error or job.status
    assert job.progress == job.total == TABLES
    data = job.file.read()
    pages = pdf_pages(data)
    assert len(pages) == TABLES
    assert "第1队·龙城" in pages[0] and f"第{2 * TABLES}队·龙城" in pages[-1]
    assert "苏州掼蛋公开赛" in pdf_text(data)
