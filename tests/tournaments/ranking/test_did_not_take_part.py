"""SPEC §2: "A registered team that never checked in and played no match is listed apart as
未参赛 (did not take part), without a place, on every ranking and export" (issue 35: such a
team was ranked 48th)."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests import factories
from tests.readers import workbook
from tests.tournaments.ranking.staged import ABSENT, staged_event
from tests.tournaments.ranking.test_one_ranking import html, table_rows
from tournaments.exporters import exports
from tournaments.services import checkin, stage_standings

pytestmark = pytest.mark.django_db


def test_a_team_never_checked_in_that_played_no_match_is_listed_apart_without_a_place(
    client, api, media
):
    s = staged_event()
    event, slug = s.event, s.event.slug
    rows = stage_standings.official_standings(event)
    *placed, last = rows
    assert (last.name, last.rank, last.absent) == (ABSENT, None, True)
    assert [row.rank for row in placed] == list(range(1, 13))  # no place taken from others
    assert not any(row.absent for row in placed)
    assert stage_standings.event_ranking(event)[-1].rank is None

    client.force_login(s.organiser)
    for path, table in (
        (f"/t/{slug}/manage/standings/", "standings"),
        (f"/t/{slug}/manage/stages/", "final-ranking"),
        (f"/t/{slug}/standings/", "standings"),
    ):
        page = html(client, path)
        assert table_rows(page, table)[-1] == (ABSENT, None, False), path
        assert "未参赛" in page, path
    body = api.get(f"/api/tournaments/{slug}/standings/").json()
    assert (body["rows"][-1]["name"], body["rows"][-1]["rank"]) == (ABSENT, None)
    assert body["rows"][-1]["absent"] is True
    body = api.get(f"/api/tournaments/{slug}/ranking/").json()
    assert (body[-1]["name"], body[-1]["rank"], body[-1]["absent"]) == (ABSENT, None, True)
    body = api.get(f"/api/tournaments/{slug}/public/standings/?size=100").json()
    assert (body["results"][-1]["rank"], body["results"][-1]["absent"]) == (None, True)

    with translation.override("zh-hans"):
        book = workbook(exports.render_now(event, "standings-xlsx").data)
    for sheet in book.worksheets:  # every round's sheet and 最终
        row = [r for r in sheet.iter_rows(min_row=4, values_only=True) if r[1] == ABSENT]
        assert len(row) == 1, sheet.title
        assert row[0][0] is None and row[0][-1] == "未参赛", sheet.title
        assert all(value is None for value in row[0][4:-1]), sheet.title  # no figures


def test_without_the_team_that_did_not_take_part_the_last_places_are_the_players_own():
    # an event without stages: A beat B, C beat D; E registered, never checked in
    event = factories.event(teams=0)
    a, b, c, d, e = (factories.team(event, name) for name in "ABCDE")
    checkin.check_in([a, b, c, d], factories.organiser_of(event))
    factories.played_round(event, 1, [(a, c), (b, d)])
    rows = stage_standings.official_standings(event)
    assert [(row.name, row.rank, row.shared) for row in rows] == [
        ("A", 1, True),
        ("B", 1, True),
        ("C", 3, True),
        ("D", 3, True),
        ("E", None, False),
    ]
    assert rows[-1].absent
    # once it plays (a late check-in), it takes a place like any other team
    checkin.check_in([e], factories.organiser_of(event))
    assert stage_standings.official_standings(event)[-1].rank == 5
