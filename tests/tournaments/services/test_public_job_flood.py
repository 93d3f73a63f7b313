"""Issue 39, abuse bounded where it starts: anonymous visitors cannot flood the job queue.

- A public export names only rounds that exist (a 404 in words otherwise, no job).
- Public jobs are capped per client address and per event revision: beyond the cap the
  answer says the files are being made, try later, and no job is created.
- Official jobs never wait behind public ones: public jobs go to their own queue, which the
  workers read after the official one (checked on a Redis of the test's own).
"""

from __future__ import annotations

import re
import socket
import subprocess
import time
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client, override_settings

from tournaments import public_exports, tasks
from tournaments.exporters import exports
from tournaments.models import Job

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
ROOT = Path(__file__).resolve().parents[3]


def test_rule_public_exports_only_for_rounds_that_exist(chinese_event):
    cache.clear()
    base = f"/t/{chinese_event.slug}/export"
    for path in (
        f"{base}/standings-pdf/?after_round=32767",
        f"{base}/standings-pdf/?after_round=4",
        f"{base}/pairings-pdf/?round=99",
    ):
        answer = Client().get(path, **EN)
        assert answer.status_code == 404, path
        assert re.search(r"There is no round (32767|4|99)\.", answer.content.decode()), path
    chinese = Client().get(f"{base}/standings-pdf/?after_round=9")
    assert chinese.status_code == 404 and "没有第 9 轮" in chinese.content.decode()
    assert not Job.objects.exists()
    # a round that exists is made as before
    assert Client().get(f"{base}/standings-pdf/?after_round=2", **EN).status_code == 202
    assert Job.objects.filter(kind="standings-pdf").count() == 1


@override_settings(PAISAI_PUBLIC_JOBS_PER_CLIENT=3, PAISAI_PUBLIC_JOBS_PER_REVISION=5)
def test_rule_public_jobs_capped_per_client_address_and_per_revision(chinese_event):
    cache.clear()
    base = f"/t/{chinese_event.slug}/export"
    asked = [
        f"{base}/standings-pdf/",
        f"{base}/standings-pdf/?after_round=1",
        f"{base}/standings-pdf/?after_round=2",
        f"{base}/standings-pdf/?after_round=3",
        f"{base}/standings-xlsx/",
        f"{base}/pairings-pdf/?round=1",
        f"{base}/pairings-pdf/?round=2",
    ]
    one = Client(REMOTE_ADDR="203.0.113.7")
    answers = [one.get(path, **EN) for path in asked]
    assert [a.status_code for a in answers[:3]] == [202, 202, 202]
    assert Job.objects.count() == 3  # the address's share of this revision
    refused = answers[3]
    assert refused.status_code == 429 and refused["Retry-After"]
    assert refused["Cache-Control"] == "no-store"
    text = refused.content.decode()
    assert "being made" in text and "try again" in text
    assert Job.objects.count() == 3
    # another address has its own share, up to the revision's cap
    other = Client(REMOTE_ADDR="198.51.100.9")
    codes = [other.get(path, **EN).status_code for path in asked[3:]]
    assert codes == [202, 202, 429, 429]
    assert Job.objects.count() == 5
    assert "正在生成" in Client(REMOTE_ADDR="192.0.2.1").get(asked[6]).content.decode()
    assert Job.objects.count() == 5
    # a new revision opens new shares
    from tournaments.freshness import invalidate

    invalidate(chinese_event)
    assert one.get(asked[5], **EN).status_code == 202
    assert Job.objects.count() == 6


def test_rule_public_jobs_go_to_their_own_queue(chinese_event, organiser_user):
    public = exports.create_job(chinese_event, "standings-pdf", {}, None, "en", revision=1)
    official = exports.create_job(chinese_event, "standings-pdf", {}, organiser_user, "en")
    assert tasks.queue_name(public) == "public"
    assert tasks.queue_name(official) == "celery"
    from config.celery import app

    consumed = (
        {queue.name for queue in app.amqp.queues.consume_from.values()}
        if (app.amqp.queues.consume_from)
        else set(app.amqp.queues)
    )
    assert consumed == {"celery", "public"}  # a worker without -Q reads both
    # every worker command the project runs reads every queue (no -Q leaving one out)
    for path in ("Makefile", "scripts/serve.sh"):
        for line in (ROOT / path).read_text().splitlines():
            if "celery -A config worker" in line:
                assert " -Q" not in line, (path, line)
    # in-process (no broker): a public job still runs at once
    assert public_exports.ensure_public_job is not None


@pytest.fixture
def organiser_user(chinese_event):
    from tests import factories

    return factories.organiser_of(chinese_event)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def own_broker(tmp_path):
    """A redis-server of this test's own, and the Celery client publishing to it."""
    from config.celery import app
    from tests.tournaments.test_tasks_worker import _reset_pool, die_with_this_process

    port = _free_port()
    server = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(tmp_path),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=die_with_this_process,
    )
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                server.kill()
                pytest.fail(f"redis-server did not start on port {port}")
            time.sleep(0.05)
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=f"redis://127.0.0.1:{port}/0", task_always_eager=False)
    _reset_pool(app)
    try:
        yield app
    finally:
        app.conf.update(saved)
        _reset_pool(app)
        server.terminate()
        server.wait(10)


def test_rule_official_jobs_never_wait_behind_public_ones(
    chinese_event, organiser_user, own_broker
):
    """Twenty public jobs queued first, then an organiser's: the worker's next message is the
    organiser's (it reads the queues the way a worker does, with the project's options)."""
    app = own_broker
    for number in range(20):
        job = exports.create_job(
            chinese_event, "standings-pdf", {}, None, "en", revision=number + 1
        )
        assert tasks.queue(job)
    official = exports.create_job(chinese_event, "scoresheets", {"round": 1}, organiser_user)
    assert tasks.queue(official)
    got = []
    with app.connection_for_read() as connection:
        queues = list(app.amqp.queues.values())
        with connection.Consumer(queues, callbacks=[lambda body, m: got.append(body)]) as c:
            c.qos(prefetch_count=1)
            connection.drain_events(timeout=5)
    assert got and got[0][0] == [official.pk], got[:1]
