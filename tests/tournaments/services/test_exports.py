"""Export pages and background jobs (Celery eager here): permissions, progress, the file."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.files.storage import default_storage
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.readers import download, pdf_pages, pdf_text
from tournaments import tasks
from tournaments.exporters import exports, scoresheets
from tournaments.models import Job
from tournaments.services import jobs

pytestmark = pytest.mark.django_db(transaction=True)
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def organiser(chinese_event, make_user, grant):
    user = grant(make_user("org"), chinese_event, "organiser")
    client = Client()
    client.force_login(user)
    return client


def url(name, event, *args):
    return reverse(f"tournaments:{name}", args=[event.slug, *args])


def start_job(event, kind, params, user, language="en"):
    job = exports.create_job(event, kind, params, user, language)
    tasks.start(job)
    return job


def test_scoresheet_job_runs_to_done_and_offers_the_file(organiser, chinese_event, settings):
    settings.PAISAI_SCORESHEET_CHUNK = 3  # 4 tables: two chunks
    response = organiser.post(
        url("export-start", chinese_event), {"kind": "scoresheets", "round": 3}, **EN
    )
    job = Job.objects.get()
    assert response.status_code == 302 and response.url == url("job", chinese_event, job.pk)
    assert job.status == "done" and job.progress == job.total == 4
    status = organiser.get(url("job-status", chinese_event, job.pk)).json()
    assert status["percent"] == 100 and status["download"] == url("job-file", chinese_event, job.pk)
    download = organiser.get(status["download"])
    data = b"".join(download.streaming_content)
    assert len(pdf_pages(data)) == 4 and "龙城队" in pdf_text(data)
    assert not default_storage.listdir(jobs.workspace(job))[1]  # chunk files are cleaned up


def test_scoresheet_job_reports_progress_chunk_by_chunk(chinese_event, settings, make_user):
    settings.PAISAI_SCORESHEET_CHUNK = 1
    seen = []
    original = jobs.set_progress

    def spy(job_id, done, total):
        seen.append((done, total))
        original(job_id, done, total)

    jobs.set_progress = spy
    try:
        start_job(chinese_event, "scoresheets", {"round": "3"}, make_user(), "en")
    finally:
        jobs.set_progress = original
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_rerunning_a_chunk_counts_it_once_and_rewrites_the_same_file(chinese_event, settings):
    settings.PAISAI_SCORESHEET_CHUNK = 2
    job = Job.objects.create(
        event=chinese_event, kind="scoresheets", params={"round": 3, "language": "en"}
    )
    exports.chunk_plan(job)
    assert exports.render_chunk(job, 0) == (2, 4)
    assert exports.render_chunk(job, 0) == (2, 4)  # delivered again after a worker restart
    assert exports.assemble_scoresheets(job.pk) is False  # chunk 1 still missing
    assert exports.render_chunk(job, 1) == (4, 4)
    assert exports.assemble_scoresheets(job.pk) is True
    job.refresh_from_db()
    assert job.status == "done" and len(pdf_pages(job.file.read())) == 4


def test_job_page_shows_a_progress_bar_that_polls(organiser, chinese_event):
    job = Job.objects.create(
        event=chinese_event,
        kind="scoresheets",
        params={"round": 3},
        total=10,
        progress=4,
        status="running",
    )
    text = organiser.get(url("job", chinese_event, job.pk), **EN).content.decode()
    assert '<progress id="job-progress" max="100" value="40"' in text
    assert url("job-status", chinese_event, job.pk) in text


def test_standings_pdf_job_in_the_background(organiser, chinese_event):
    organiser.post(url("export-start", chinese_event), {"kind": "standings-pdf", "after_round": 2})
    job = Job.objects.get()
    assert job.status == "done"
    assert job.progress == job.total == 2 and job.percent == 100  # not "Done 0 / 1"
    assert "姑苏队" in pdf_text(job.file.read())


def test_bad_job_request_shows_the_reason_on_the_exports_page(organiser, chinese_event):
    response = organiser.post(
        url("export-start", chinese_event), {"kind": "scoresheets", "round": 9}, follow=True, **EN
    )
    assert "There is no round 9." in response.content.decode()
    assert not Job.objects.exists()


def test_exports_page_and_jobs_need_organiser_or_chief(chinese_event, make_user, grant):
    client = Client()
    assert client.get(url("exports", chinese_event)).status_code == 302
    referee = grant(make_user("tref"), chinese_event, "table_referee")
    client.force_login(referee)
    assert client.get(url("exports", chinese_event)).status_code == 403
    assert (
        client.post(
            url("export-start", chinese_event), {"kind": "scoresheets", "round": 3}
        ).status_code
        == 403
    )
    chief = grant(make_user("chief"), chinese_event, "chief_referee")
    client.force_login(chief)
    assert client.get(url("exports", chinese_event)).status_code == 200


def test_jobs_of_another_event_are_not_found(organiser, chinese_event, make_event):
    other = make_event()
    job = Job.objects.create(event=other, kind="scoresheets", params={"round": 1})
    assert organiser.get(url("job-status", chinese_event, job.pk)).status_code == 404


def test_archive_download_is_for_officials_only(chinese_event, organiser):
    anonymous = Client().get(url("export", chinese_event, "archive"))
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous.url
    response = download(organiser, url("export", chinese_event, "archive"))
    assert response.status_code == 200 and "龙城队" in response.content.decode()


def test_download_with_a_bad_parameter_says_what_is_wrong(chinese_event):
    response = Client().get(url("export", chinese_event, "pairings-pdf"), {"round": "abc"}, **EN)
    assert response.status_code == 400 and "abc" in response.content.decode()
    response = Client().get(url("export", chinese_event, "nonsense"), **EN)
    assert response.status_code == 400 and "nonsense" in response.content.decode()


def test_failed_job_shows_a_message_not_a_traceback(chinese_event, make_user, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(scoresheets, "fields_pdf", broken)
    job = start_job(chinese_event, "scoresheets", {"round": "3"}, make_user(), "en")
    job.refresh_from_db()
    assert job.status == "failed"
    assert job.error == "The export failed; it has been logged." and "disk" not in job.error


def _stale_job(event, kind="scoresheets", params=None, status="running", restarts=0):
    """A job whose worker died long ago: no heartbeat for ten minutes."""
    past = timezone.now() - timedelta(minutes=10)
    job = Job.objects.create(
        event=event,
        kind=kind,
        params=params or {"round": 3, "language": "en"},
        status=status,
        restarts=restarts,
    )
    Job.objects.filter(pk=job.pk).update(heartbeat_at=past, created_at=past)
    return job


def test_sweep_requeues_the_missing_chunks_of_a_job_no_worker_touched(chinese_event, settings):
    settings.PAISAI_SCORESHEET_CHUNK = 2
    job = _stale_job(chinese_event)
    exports.chunk_plan(job)
    exports.render_chunk(job, 0)  # the dead worker had rendered one chunk of two
    Job.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now() - timedelta(minutes=5))
    rendered = []
    original = exports.render_chunk

    def spy(job, index):
        rendered.append(index)
        return original(job, index)

    exports.render_chunk = spy
    try:
        assert tasks.sweep_jobs() == 1
    finally:
        exports.render_chunk = original
    job.refresh_from_db()
    assert rendered == [1]  # only the missing chunk
    assert job.status == "done" and job.restarts == 1 and job.progress == job.total == 4
    assert len(pdf_pages(job.file.read())) == 4


def test_sweep_leaves_a_job_with_a_recent_heartbeat_alone(chinese_event):
    job = _stale_job(chinese_event)
    Job.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now())
    assert tasks.sweep_jobs() == 0
    job.refresh_from_db()
    assert job.status == "running" and job.restarts == 0


def test_sweep_queues_a_waiting_job_whose_message_was_lost(chinese_event):
    job = _stale_job(
        chinese_event, kind="standings-pdf", params={"language": "en"}, status="pending"
    )
    Job.objects.filter(pk=job.pk).update(heartbeat_at=None)
    assert tasks.sweep_jobs() == 1
    job.refresh_from_db()
    assert job.status == "done" and job.progress == job.total == 2


def test_job_failing_every_restart_is_marked_failed_with_a_retry_button(
    organiser, chinese_event, settings
):
    settings.PAISAI_JOB_MAX_RESTARTS = 3
    job = _stale_job(chinese_event, restarts=3)  # a worker died three times on it
    claimed = jobs.claim_stale()
    assert claimed == []
    job.refresh_from_db()
    assert job.status == "failed" and job.restarts == 4
    assert "stopped 4 times" in job.error
    status = organiser.get(url("job-status", chinese_event, job.pk)).json()
    assert status["retry"] == url("job-retry", chinese_event, job.pk)
    page = organiser.get(url("job", chinese_event, job.pk), **EN).content.decode()
    assert 'id="job-retry"' in page and "Retry" in page
    response = organiser.post(url("job-retry", chinese_event, job.pk))
    assert response.status_code == 302
    job.refresh_from_db()
    assert job.status == "done" and job.restarts == 0 and job.error == ""
    assert organiser.get(url("job-status", chinese_event, job.pk)).json()["retry"] is None


def test_only_a_failed_job_can_be_retried(organiser, chinese_event, make_user, grant):
    job = _stale_job(chinese_event)
    Job.objects.filter(pk=job.pk).update(status="done")
    response = organiser.post(url("job-retry", chinese_event, job.pk), follow=True, **EN)
    assert "Only a failed job can be retried." in response.content.decode()
    referee = grant(make_user("ref9"), chinese_event, "table_referee")
    client = Client()
    client.force_login(referee)
    assert client.post(url("job-retry", chinese_event, job.pk)).status_code == 403


def test_two_sweeps_at_once_restart_a_job_once(chinese_event):
    job = _stale_job(chinese_event)
    first = jobs.claim_stale()
    second = jobs.claim_stale()
    assert [j.pk for j in first] == [job.pk] and second == []
    job.refresh_from_db()
    assert job.restarts == 1


def test_a_job_that_cannot_be_queued_fails_with_a_retry_and_the_sweep_queues_it_again(
    chinese_event, monkeypatch, make_user
):
    """Issue 31: a job started while Redis was down stayed "pending" for ever. It is failed
    with the reason and a retry; once the broker answers the sweep queues it again."""
    from kombu.exceptions import OperationalError

    def down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    with monkeypatch.context() as broker_down:
        broker_down.setattr(tasks.run_export_job, "apply_async", down)
        job = exports.create_job(chinese_event, "standings-pdf", {}, make_user(), "en")
        assert tasks.queue(job) is False
    job.refresh_from_db()
    assert job.status == "failed" and "did not answer" in job.error
    assert jobs.can_retry(job)
    assert tasks.sweep_jobs() == 1  # the broker answers again (eager here): queued, run
    job.refresh_from_db()
    assert job.status == "done" and "unqueued" not in job.report


def test_sweep_command_runs_the_sweep(chinese_event):
    from io import StringIO

    from django.core.management import call_command

    _stale_job(chinese_event, kind="standings-pdf", params={"language": "en"})
    out = StringIO()
    call_command("sweep_jobs", stdout=out)
    assert "1 job(s) queued again" in out.getvalue()
    assert Job.objects.get().status == "done"


def test_a_long_step_keeps_its_job_alive_with_a_heartbeat(chinese_event, settings):
    import time

    settings.PAISAI_JOB_STALE_SECONDS = 0.6  # beats every 0.2 s
    job = _stale_job(chinese_event)
    with jobs.heartbeat(job.pk):
        time.sleep(1.0)  # a long step, no progress reported
        job.refresh_from_db()
        assert timezone.now() - job.heartbeat_at < timedelta(seconds=0.6)
        assert jobs.claim_stale() == []


def test_sweep_waits_while_messages_are_queued(chinese_event, monkeypatch):
    job = _stale_job(chinese_event)
    monkeypatch.setattr(tasks, "backlog", lambda app: 12)  # the workers are busy
    assert tasks.sweep_jobs() == 0
    job.refresh_from_db()
    assert job.restarts == 0 and job.status == "running"
