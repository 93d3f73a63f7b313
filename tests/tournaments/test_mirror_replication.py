"""Issue 30's acceptance: a venue box and a public mirror following it through PostgreSQL's
streaming replication (a hot standby), with an app process on each — on clusters of their own
(tests/replication.py: initdb, pg_basebackup -R, free ports of 8800–8899; the main cluster is
never touched).

Results entered at the venue (its API) appear on the mirror's public standings; the link cut,
twenty more results entered at the venue, the mirror still serves the earlier standings with
their time and refuses a write; the link restored, the mirror catches up by itself: its
standings, pairings and team pages equal the venue's, every table has the same rows, and no
result version is doubled.
"""

from __future__ import annotations

import json
import random
import re
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from tests import replication as rep
from tournaments.errors import Code
from tournaments.mirror import AS_OF_HEADER

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(rep.unavailable() is not None, reason=str(rep.unavailable())),
]
TEAMS, BEFORE, DURING = 60, 10, 20  # 30 tables: 10 results before the cut, 20 during it
PUBLIC_API = f"/api/tournaments/{rep.SLUG}/public"


@pytest.fixture(scope="module")
def sites():
    venue = rep.Venue()
    try:
        yield venue, *venue.build(TEAMS)
    finally:
        venue.close()


def get_json(base: str, path: str) -> dict:
    status, _headers, body = rep.http("GET", base + path)
    assert status == 200, (base + path, body[:300])
    return json.loads(body)


def standings(base: str) -> dict:
    return get_json(base, f"{PUBLIC_API}/standings/?page_size=1000")


def page(base: str, path: str) -> tuple[str, dict]:
    status, headers, body = rep.http("GET", base + path)
    assert status == 200, (base + path, body[:300])
    return body.decode(), headers


def comparable(html: str, base: str) -> str:
    """A page as both sites render it: without the mirror's line naming the venue, its QR
    badge (the site's own address) and the site's address."""
    html = re.sub(r'<p class="mirror-note.*?</p>\n?', "", html)
    html = re.sub(r"<svg.*?</svg>", "<svg/>", html, flags=re.S)
    return re.sub(r"\n\s*\n", "\n", html.replace(base, ""))


def same(mirror_side, venue_side, what: str) -> None:
    """The mirror's answer equals the venue's within a few seconds (a mirror renders a page
    at most once a second, PAISAI_PUBLIC_RENDER_PAUSE)."""
    found = {}

    def equal() -> bool:
        found["mirror"], found["venue"] = mirror_side(), venue_side()
        return found["mirror"] == found["venue"]

    try:
        rep.wait_for(equal, 20, what, every=0.5)
    except TimeoutError:
        assert found["mirror"] == found["venue"], what


def enter(venue: str, event: dict, matches: list[int], seed: int) -> None:
    rng = random.Random(seed)
    for match in matches:
        status, body = rep.enter_result(venue, event["token"], match, rep.legal_record(rng))
        assert status == 201, body


def test_a_mirror_follows_the_venue_through_a_cut_and_catches_up(sites):
    cluster, venue, mirror, event = sites
    matches = event["matches"]

    # results entered at the venue appear on the mirror's public standings
    enter(venue, event, matches[:BEFORE], seed=1)
    rep.wait_for(cluster.caught_up, 30, "the mirror replays the first results")
    earlier = standings(venue)
    assert earlier["revision"] >= BEFORE and any(r["points"] for r in earlier["results"])
    same(lambda: standings(mirror), lambda: earlier, "the mirror's standings")
    earlier_page, headers = page(mirror, f"/t/{rep.SLUG}/standings/")
    changed = timezone.localtime(datetime.fromisoformat(earlier["revised_at"]))
    assert f"成绩更新于 {changed:%H:%M:%S}" in earlier_page and "赛场系统的只读镜像" in earlier_page
    # the mirror's data are complete to a time at the latest revision's (the replayed commit
    # and the revision's own time come from two clocks: the primary's commit stamp and the
    # app's bump; allow them 5 s apart)
    assert datetime.fromisoformat(headers[AS_OF_HEADER]) >= datetime.fromisoformat(
        earlier["revised_at"]
    ) - timedelta(seconds=5)

    # the link cut: the venue goes on untouched (twenty more results)
    cluster.cut()
    cut_at = timezone.now()
    enter(venue, event, matches[BEFORE : BEFORE + DURING], seed=2)
    later = standings(venue)
    assert later["revision"] >= earlier["revision"] + DURING
    assert later["results"] != earlier["results"]

    # the mirror still serves the earlier standings, saying how old they are
    assert standings(mirror) == earlier
    during_page, headers = page(mirror, f"/t/{rep.SLUG}/standings/")
    assert f"成绩更新于 {changed:%H:%M:%S}" in during_page
    clock = get_json(mirror, f"{PUBLIC_API}/clock/")
    as_of = datetime.fromisoformat(clock["data_as_of"])
    assert as_of <= cut_at and clock["mirror_of"] == venue
    assert datetime.fromisoformat(clock["now"]) - as_of >= timedelta(seconds=0)
    assert datetime.fromisoformat(headers[AS_OF_HEADER]) <= cut_at
    projector, _ = page(mirror, f"/t/{rep.SLUG}/projector/")
    assert 'id="projector-stale"' in projector and 'data-stale-seconds="60"' in projector

    # … and refuses a write, with a link to the venue
    versions = cluster.standby.query("SELECT count(*) FROM tournaments_resultversion")
    status, body = rep.enter_result(mirror, event["token"], matches[-1], {"game": "guandan"})
    assert status == 403 and body["code"] == Code.READ_ONLY_MIRROR
    assert body["venue"] == f"{venue}/api/tournaments/{rep.SLUG}/matches/{matches[-1]}/result/"
    status, _headers, html = rep.http("POST", mirror + "/accounts/login/", {"username": "chief"})
    assert status == 403 and f"{venue}/accounts/login/".encode() in html
    assert cluster.standby.query("SELECT count(*) FROM tournaments_resultversion") == versions

    # the link restored: the mirror catches up by itself
    cluster.heal()
    rep.wait_for(cluster.streaming, 30, "the WAL receiver streams again")
    rep.wait_for(cluster.caught_up, 30, "the mirror replays the cut's results")
    same(lambda: standings(mirror), lambda: later, "standings after the heal")
    pairings = f"{PUBLIC_API}/pairings/?round=1&page_size=1000"
    same(lambda: get_json(mirror, pairings), lambda: get_json(venue, pairings), "pairings")
    for path in [f"/t/{rep.SLUG}/standings/", f"/t/{rep.SLUG}/pairings/"] + [
        f"/t/{rep.SLUG}/teams/{team}/" for team in event["teams"][: 2 * (BEFORE + DURING) : 5]
    ]:
        same(
            lambda path=path: comparable(page(mirror, path)[0], mirror),
            lambda path=path: comparable(page(venue, path)[0], venue),
            path,
        )

    # nothing lost or doubled on either side
    tables = [
        name
        for (name,) in cluster.primary.query(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
        )
    ]
    count = " UNION ALL ".join(f"SELECT '{t}', count(*) FROM {t}" for t in tables)
    assert cluster.standby.query(count) == cluster.primary.query(count)
    doubled = """SELECT match_id, number FROM tournaments_resultversion
                 GROUP BY match_id, number HAVING count(*) > 1"""
    per_match = """SELECT count(*), count(DISTINCT match_id) FROM tournaments_resultversion"""
    for side in (cluster.primary, cluster.standby):
        assert side.query(doubled) == []
        assert side.query(per_match) == [(BEFORE + DURING, BEFORE + DURING)]
