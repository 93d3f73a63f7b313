"""A public mirror (PAISAI_MIRROR_OF): public reads only, every write and login sent to the
venue's site with a message; every public answer says how fresh it is.

The whole path through PostgreSQL replication (a hot standby, the link cut and healed) is
tests/tournaments/test_mirror_replication.py.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments import mirror
from tournaments.models import ResultVersion

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
VENUE = "http://192.168.1.10:8000"


@pytest.fixture
def on_mirror(settings):
    settings.PAISAI_MIRROR_OF = VENUE
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
    settings.MESSAGE_STORAGE = "django.contrib.messages.storage.cookie.CookieStorage"
    return VENUE


def url(name, event, *args):
    return reverse(f"tournaments:{name}", args=[event.slug, *args])


def test_a_mirror_serves_the_public_pages_and_api(on_mirror, chinese_event):
    client = Client()
    team = chinese_event.teams_in_order[0]
    for path in [
        url("public-standings", chinese_event),
        url("public-pairings", chinese_event),
        url("public-team", chinese_event, team.pk),
        url("projector", chinese_event),
        url("find-table", chinese_event) + "?q=龙城",
        url("public-units", chinese_event),
        url("detail", chinese_event),
        f"/api/tournaments/{chinese_event.slug}/public/standings/",
        f"/api/tournaments/{chinese_event.slug}/public/pairings/",
        f"/api/tournaments/{chinese_event.slug}/public/find-table/?q=zwj",
        f"/api/tournaments/{chinese_event.slug}/public/clock/",
    ]:
        response = client.get(path, **EN)
        assert response.status_code == 200, path
        assert mirror.AS_OF_HEADER in response, path
    page = client.get(url("public-standings", chinese_event), **EN).content.decode()
    assert "Read-only mirror of the venue's site" in page and VENUE in page


def test_a_mirror_refuses_a_login_with_a_link_to_the_venue(on_mirror, chinese_event, make_user):
    make_user("referee9")
    client = Client()
    page = client.get("/accounts/login/?next=/t/x/", **EN)
    assert page.status_code == 200
    assert f'href="{VENUE}/accounts/login/?next=/t/x/"' in page.content.decode()
    posted = client.post("/accounts/login/", {"username": "referee9", "password": "x"}, **EN)
    assert posted.status_code == 403
    text = posted.content.decode()
    assert "read-only public mirror" in text and "Nothing was saved here" in text
    assert f"{VENUE}/accounts/login/" in text
    assert Session.objects.count() == 0


def test_a_mirror_says_so_in_chinese(on_mirror, chinese_event):
    page = Client().post(url("public-standings", chinese_event)).content.decode()
    assert "只读公开镜像" in page and "请到赛场系统上重新操作" in page


def test_a_mirror_refuses_every_write_and_private_page(on_mirror, chinese_event):
    client = Client()
    match = chinese_event.rounds.get(number=3).matches.exclude(away=None).first()
    versions = ResultVersion.objects.count()
    answer = client.post(
        f"/api/tournaments/{chinese_event.slug}/matches/{match.pk}/results/",
        {"deals": []},
        content_type="application/json",
        **EN,
    )
    assert answer.status_code == 403
    body = answer.json()
    assert body["code"] == "read_only_mirror" and body["field"] is None
    assert body["venue"].startswith(VENUE + "/api/tournaments/")
    assert ResultVersion.objects.count() == versions
    for path in [url("console", chinese_event), "/admin/", url("export", chinese_event, "x")]:
        page = client.get(path, **EN)
        assert page.status_code == 200 and 'id="venue-link"' in page.content.decode(), path
    assert client.get("/api/schema/").status_code == 403


def test_the_venue_is_no_mirror(chinese_event):
    response = Client().get("/accounts/login/", **EN)
    assert response.status_code == 200 and "venue-link" not in response.content.decode()
    assert mirror.AS_OF_HEADER not in Client().get(url("public-standings", chinese_event))


def test_a_public_page_says_when_its_results_last_changed(chinese_event):
    """成绩更新于 14:03:12: the time of the revision's last bump, stored with the data."""
    chinese_event.refresh_from_db()
    changed = timezone.localtime(chinese_event.revised_at)
    page = Client().get(url("public-standings", chinese_event)).content.decode()
    assert f"成绩更新于 {changed:%H:%M:%S}" in page
    found = re.search(r'id="freshness"><time datetime="([^"]+)"', page)
    assert found is not None
    projector = Client().get(url("projector", chinese_event)).content.decode()
    assert f"成绩更新于 {changed:%H:%M:%S}" in projector and 'id="projector-stale"' in projector
    api = Client().get(f"/api/tournaments/{chinese_event.slug}/public/standings/").json()
    assert timezone.datetime.fromisoformat(api["revised_at"]) == changed


def test_the_clock_says_how_complete_the_data_is(chinese_event):
    before = timezone.now()
    clock = Client().get(f"/api/tournaments/{chinese_event.slug}/public/clock/").json()
    assert clock["mirror_of"] is None  # the venue: its data is complete now
    assert timezone.datetime.fromisoformat(clock["data_as_of"]) >= before
    assert clock["revised_at"] is not None
