"""Public downloads (the standings PDF and Excel, published pairings, unit standings, a
bracket): made once per event revision by a job, never in the request, and served through
the public pages' cache with ETag / 304 / Cache-Control (issue 26)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client, TestCase

from tests import factories
from tests.readers import pdf_text
from tournaments import public_exports, tasks
from tournaments.exporters.standings_pdf import StandingsPdf
from tournaments.freshness import invalidate
from tournaments.models import Job

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def renders(monkeypatch):
    """How many times the standings PDF is rendered."""
    count = []
    original = StandingsPdf.render_bytes

    def counted(self):
        count.append(1)
        return original(self)

    monkeypatch.setattr(StandingsPdf, "render_bytes", counted)
    return count


def get(client, path, **extra):
    """A GET whose queued job runs when its transaction commits (Celery is eager here)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.get(path, **extra)


def test_the_standings_pdf_is_made_once_a_revision_and_then_served_from_the_cache(
    chinese_event, renders, django_assert_num_queries
):
    cache.clear()
    path = f"/t/{chinese_event.slug}/export/standings-pdf/"
    asked = get(Client(), path, **EN)  # being made: the job runs once the request commits
    assert asked.status_code == 202 and len(renders) == 1
    first = Client().get(path, **EN)
    assert first.status_code == 200 and "龙城队" in pdf_text(first.content)
    assert len(renders) == 1 and Job.objects.filter(kind="standings-pdf").count() == 1
    assert first["ETag"] and "public" in first["Cache-Control"]
    assert first["Content-Disposition"].endswith('standings.pdf"')
    # the same revision again: a cache hit (the event row only), no rendering, no job
    with django_assert_num_queries(1):
        again = Client().get(path, **EN)
    assert again.status_code == 200 and again.content == first.content
    assert again["ETag"] == first["ETag"] and again["Content-Disposition"]
    # revalidation: a 304 for the event row only
    with django_assert_num_queries(1):
        revalidated = Client().get(path, HTTP_IF_NONE_MATCH=first["ETag"], **EN)
    assert revalidated.status_code == 304 and revalidated.content == b""
    assert len(renders) == 1 and Job.objects.filter(kind="standings-pdf").count() == 1


def test_a_new_revision_gets_a_new_file_once(chinese_event, renders):
    cache.clear()
    path = f"/t/{chinese_event.slug}/export/standings-pdf/"
    get(Client(), path, **EN)
    first = Client().get(path, **EN)
    invalidate(chinese_event)  # a result confirmed: the public answers are out of date
    assert get(Client(), path, **EN).status_code == 202  # the new revision's file is made
    second = Client().get(path, **EN)
    assert second.status_code == 200 and second["ETag"] != first["ETag"]
    assert len(renders) == 2
    assert get(Client(), path, **EN).status_code == 200
    assert len(renders) == 2
    oldest = Job.objects.filter(kind="standings-pdf").order_by("pk").first()
    invalidate(chinese_event)
    get(Client(), path, **EN)
    assert len(renders) == 3
    # the files of older revisions go (but the one before the current)
    assert Job.objects.filter(kind="standings-pdf").count() == 2
    assert not Job.objects.filter(pk=oldest.pk).exists()
    assert not oldest.file.storage.exists(oldest.file.name)


def test_while_the_file_is_being_made_the_answer_says_so_and_is_not_cached(chinese_event):
    cache.clear()
    path = f"/t/{chinese_event.slug}/export/standings-pdf/"
    waiting = Client().get(path, **EN)  # the job is queued, not run (nothing commits here)
    assert waiting.status_code == 202 and waiting["Cache-Control"] == "no-store"
    assert waiting["Retry-After"] and "being made" in waiting.content.decode()
    assert Job.objects.filter(kind="standings-pdf", status="pending").count() == 1
    cache.clear()  # (past the few seconds a missing file is looked for at most once)
    assert Client().get(path, **EN).status_code == 202
    assert Job.objects.filter(kind="standings-pdf").count() == 1  # one job, not two
    chinese = Client().get(path)  # a file a language
    assert "正在生成" in chinese.content.decode()


def test_the_standings_page_links_a_download_only_once_its_file_exists(chinese_event):
    cache.clear()
    page = f"/t/{chinese_event.slug}/standings/"
    before = Client().get(page).content.decode()
    assert 'id="standings-pdf-generating"' in before and 'id="standings-pdf"' not in before
    assert "正在生成" in before
    jobs = Job.objects.filter(kind__in=("standings-pdf", "standings-xlsx"))
    assert jobs.count() == 2  # asked for by the page
    with TestCase.captureOnCommitCallbacks(execute=True):
        for job in jobs:
            tasks.start(job)
    cache.clear()
    after = Client().get(page).content.decode()
    assert 'id="standings-pdf"' in after and 'id="standings-xlsx"' in after
    assert public_exports.public_ready(chinese_event, "standings-pdf", {}, "zh-hans")


def run_asked_jobs():
    """The public jobs the pages asked for run (a worker's share; Celery is eager here)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        for job in Job.objects.filter(status="pending"):
            tasks.start(job)
    cache.clear()  # (past the few seconds a missing file is looked for at most once)


def files_on(page: str) -> tuple[dict[str, str], set[str]]:
    """The page's download links (export → href) and the files it says are being made."""
    import re

    links = dict(
        re.findall(r'<a class="btn secondary small" id="([a-z]+-[a-z]+)" href="([^"]+)"', page)
    )
    making = set(re.findall(r'id="([a-z]+-[a-z]+)-generating"', page))
    return links, making


def test_the_pairings_units_and_bracket_pages_link_a_file_only_once_it_exists(chinese_event):
    """As on the standings page (one mechanism, PublicMixin.downloads): before the file of the
    current revision exists the page says "正在生成" and asks a job to make it; once it exists
    the page links it, and the link answers the file (200), never 202."""
    from tournaments.services import stage_rounds

    knockout = factories.event(teams=0)
    for i in range(1, 5):
        factories.team(knockout, f"S{i}", seed=i)
    stage = factories.stage(
        knockout, name="决赛阶段", kind="knockout", match_format={"end": "deals", "deals": 1}
    )
    stage_rounds.draw_round(stage, factories.organiser_of(knockout))
    slug = chinese_event.slug
    pages = {
        f"/t/{slug}/pairings/": {"pairings-pdf": "?round=3", "pairings-xlsx": "?round=3"},
        f"/t/{slug}/pairings/?round=2": {"pairings-pdf": "?round=2", "pairings-xlsx": "?round=2"},
        f"/t/{slug}/units/": {"units-pdf": "", "units-xlsx": ""},
        f"/t/{knockout.slug}/stages/{stage.pk}/bracket/": {"bracket-pdf": f"?stage={stage.pk}"},
    }
    cache.clear()
    for path, files in pages.items():
        page = Client().get(path).content.decode()
        links, making = files_on(page)
        assert links == {} and making == set(files), (path, links, making)
        assert "正在生成" in page
    run_asked_jobs()
    for path, files in pages.items():
        links, making = files_on(Client().get(path).content.decode())
        event = path.split("/")[2]
        assert making == set() and links == {
            kind: f"/t/{event}/export/{kind}/{query}" for kind, query in files.items()
        }, path
        for href in links.values():
            assert Client().get(href).status_code == 200, href
    # a new revision: the pages say "being generated" again until its files are made
    invalidate(chinese_event)
    links, making = files_on(Client().get(f"/t/{slug}/units/").content.decode())
    assert links == {} and making == {"units-pdf", "units-xlsx"}


def test_a_cached_pairings_page_still_costs_one_query_with_its_files(
    chinese_event, django_assert_num_queries
):
    cache.clear()
    path = f"/t/{chinese_event.slug}/pairings/"
    Client().get(path)
    run_asked_jobs()
    first = Client().get(path)
    assert 'id="pairings-pdf"' in first.content.decode()
    with django_assert_num_queries(1):  # the event row: the round's number is remembered
        again = Client().get(path)
    assert again.content == first.content
