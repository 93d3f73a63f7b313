"""Every kind of file made by a real Celery worker on "another host" and downloaded by the web
process: the two run on different MEDIA_ROOTs and share only the database, Redis and the file
storage (tests/storage.py, standing for an object store: its own location, no local path).

Nothing is written under either MEDIA_ROOT: exports, job parts and the finished files all go
through the storage API (settings.STORAGES), so a deployment on several hosts needs no shared
disk (issue 26).
"""

from __future__ import annotations

import json
import time

import pytest
from django.core.files.storage import default_storage
from django.test import Client

from tests import factories
from tests.readers import pdf_pages, pdf_text, workbook
from tournaments.models import Event, TableKey
from tournaments.services import table_keys

# the real worker, its broker and its killing, as the scoresheet worker test starts them
from .test_tasks_worker import redis_broker, start_worker  # noqa: F401

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]
STORAGE = "tests.storage.RemoteStorage"
DEADLINE = 90


@pytest.fixture
def two_hosts(monkeypatch, tmp_path, settings, request):
    """A worker whose MEDIA_ROOT is tmp/media and this (web) process on tmp/web-media, both
    with the shared storage in tmp/shared."""
    shared = tmp_path / "shared"
    options = {"location": str(shared), "base_url": "/files/"}
    monkeypatch.setenv("FILE_STORAGE", STORAGE)
    monkeypatch.setenv("FILE_STORAGE_OPTIONS", json.dumps(options))
    monkeypatch.setenv("PAISAI_EXPORT_CHUNK", "2")  # several chunks a job, in parallel
    start = request.getfixturevalue("start_worker")
    worker_media = tmp_path / "media"
    web_media = tmp_path / "web-media"
    settings.MEDIA_ROOT = str(web_media)
    settings.STORAGES = {**settings.STORAGES, "default": {"BACKEND": STORAGE, "OPTIONS": options}}
    start()
    return shared, worker_media, web_media


def fetch(client: Client, path: str) -> bytes:
    """What a person gets from the link: an official's job page polled until the file is
    offered, or a public file answered "being made" (202) until the worker made it."""
    deadline = time.monotonic() + DEADLINE
    response = client.get(path)
    if response.status_code == 302 and "/manage/exports/jobs/" in response.url:
        while time.monotonic() < deadline:
            status = client.get(response.url + "status/").json()
            assert status["status"] != "failed", (path, status["error"])
            if status["download"]:
                file = client.get(status["download"])
                assert file.status_code == 200, path
                return b"".join(file.streaming_content)
            time.sleep(0.2)
        pytest.fail(f"{path}: the job did not finish in {DEADLINE} s")
    while response.status_code == 202 and time.monotonic() < deadline:
        time.sleep(0.5)
        response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return response.content


def test_web_and_worker_on_different_disks_make_and_serve_every_kind_of_file(
    two_hosts, chinese_event, make_user, grant
):
    shared, worker_media, web_media = two_hosts
    organiser = factories.organiser_of(chinese_event)
    table_keys.issue_missing(chinese_event, organiser)
    assert TableKey.objects.filter(event=chinese_event).count() == 4
    staff = Client()
    staff.force_login(organiser)
    public = Client()
    base = f"/t/{chinese_event.slug}/export"

    sheets = fetch(staff, f"{base}/scoresheets/?round=3")
    assert len(pdf_pages(sheets)) == 4 and "龙城队" in pdf_text(sheets)
    badges = pdf_text(fetch(staff, f"{base}/team-badges-pdf/"))
    assert all(name in badges for name in factories.CHINESE_NAMES)
    cards = pdf_pages(fetch(staff, f"{base}/table-cards-pdf/?round=3"))
    assert len(cards) == 4 and "龙城队" in cards[0]
    links = pdf_text(fetch(staff, f"{base}/table-links-pdf/")).replace("\n", "")
    assert all(f"/table/{key.key}" in links for key in TableKey.objects.all())
    standings = workbook(fetch(public, f"{base}/standings-xlsx/")).active
    assert "龙城队" in {cell.value for row in standings.iter_rows() for cell in row}
    assert "龙城队" in pdf_text(fetch(public, f"{base}/standings-pdf/"))
    assert "无锡" in pdf_text(fetch(public, f"{base}/units-pdf/"))
    prize_list = pdf_text(fetch(staff, f"{base}/prizes-pdf/"))
    Event.objects.filter(pk=chinese_event.pk).update(status=Event.Status.FINISHED)
    certificates = pdf_pages(fetch(staff, f"{base}/certificates-pdf/"))
    assert chinese_event.name in prize_list and certificates

    knockout = factories.event(teams=0, slug="ko-cup")
    for i in range(1, 5):
        factories.team(knockout, f"北京{i}队", seed=i)
    stage = factories.stage(
        knockout, name="决赛阶段", kind="knockout", match_format={"end": "deals", "deals": 1}
    )
    factories.play_stage_round(stage)  # the semi-finals
    bracket = fetch(public, f"/t/{knockout.slug}/export/bracket-pdf/?stage={stage.pk}")
    assert "北京1队" in pdf_text(bracket)

    # everything went through the shared storage; neither host's MEDIA_ROOT holds a file
    assert not [p for p in web_media.rglob("*") if p.is_file()]
    assert not [p for p in worker_media.rglob("*") if p.is_file()]
    finished = [p for p in (shared / "exports").glob("*") if p.is_file()]
    assert len(finished) == 10, sorted(p.name for p in finished)
    assert not default_storage.listdir("exports/work")[1]  # the chunks are cleaned up
