"""`make run` renders no file in a request (issue 39): without a broker, the jobs a page asks
for run in a thread of the process after the request has answered (tournaments.tasks
.in_process); the page says the file is being made, then offers it."""

from __future__ import annotations

import threading

import pytest
from django.test import Client

from tests import factories
from tournaments import tasks
from tournaments.models import Job

pytestmark = pytest.mark.django_db(transaction=True)


def test_rule_without_a_broker_a_public_page_answers_before_its_files_are_rendered(
    settings, media, monkeypatch
):
    settings.PAISAI_JOBS_IN_THREAD = True
    event = factories.build_event(factories.event, factories.user, factories.grant).event
    rendering = threading.Event()
    release = threading.Event()
    threads = []
    real = tasks._run_in_process

    # Every job waits before it touches the database: the page's request and the test's own
    # reads never run beside a job's writes (SQLite's in-memory test database locks whole
    # tables across threads: CI saw a job left pending by such a lock).
    def held(task, job_id):
        threads.append(threading.current_thread().name)
        rendering.set()
        assert release.wait(60), "the test never released the render"
        real(task, job_id)

    monkeypatch.setattr(tasks, "_run_in_process", held)
    page = Client().get(f"/t/{event.slug}/pairings/")
    # the page answered while no file was rendered: the render waits for the test
    assert page.status_code == 200
    assert rendering.wait(30), "no job started in the in-process runner"
    assert not Job.objects.filter(event=event, status=Job.Status.DONE).exists()
    release.set()
    tasks.wait_in_process(120)
    made = Job.objects.filter(event=event)
    assert made.exists() and set(made.values_list("status", flat=True)) == {Job.Status.DONE}
    assert threads and all(name.startswith("paisai-jobs") for name in threads), threads
