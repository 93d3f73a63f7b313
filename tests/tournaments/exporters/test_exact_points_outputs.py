"""Issue 36: an event on the 南山杯 2026 edition (1 / 0.5 / 0, absent −1, bye 1) shows its
half points as 0.5 — never 0.50 or 1.0 — on the public standings, in the xlsx and PDF
exports and in the API, stored and summed exactly."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import translation

from tests import factories
from tests.readers import pdf_text, workbook
from tournaments.exporters.standings_pdf import StandingsPdf
from tournaments.exporters.standings_xlsx import StandingsXlsx
from tournaments.standings.service import standings_for

# EW double up (2 → 5), then NS double up (2 → 5): equal levels at time, a draw
DRAW = [{"finish": ["E", "W", "S", "N"]}, {"finish": ["S", "N", "E", "W"]}]


@pytest.fixture
def nanshan_event(db, media):
    """Four teams. Round 1: 001 draws 002, 003 beats 004. Round 2: 001 beats 003, 002
    draws 004. Round 3: 004 did not come to play 001 (1 : −1); 002 has a bye (1)."""
    event = factories.event(teams=4, preset="guandan-nanshan-2026", slug="nanshan")
    t1, t2, t3, t4 = event.teams.order_by("pk")
    one = factories.round_(event, 1, [(t1, t2), (t3, t4)])
    factories.result(one.matches.get(home=t1), deals=DRAW)
    factories.result(one.matches.get(home=t3))
    two = factories.round_(event, 2, [(t1, t3), (t2, t4)])
    factories.result(two.matches.get(home=t1))
    factories.result(two.matches.get(home=t2), deals=DRAW)
    three = factories.round_(event, 3, [(t1, t4)], byes=[t2])
    factories.result(three.matches.get(home=t1), deals=[], forfeit="NS")
    return event


EXPECTED = {"Team 001": "2.5", "Team 002": "2", "Team 003": "1", "Team 004": "-0.5"}


def test_standings_sum_the_editions_points_exactly(nanshan_event):
    points = {row.name: row.points for row in standings_for(nanshan_event)}
    assert {name: str(value) for name, value in points.items()} == EXPECTED
    assert all(isinstance(value, Decimal) for value in points.values())


def test_xlsx_shows_half_points_as_0_5(nanshan_event):
    with translation.override("en"):
        book = workbook(StandingsXlsx(nanshan_event).render().data)
    rows = {row[1]: row[3] for row in book["Final"].iter_rows(min_row=4, values_only=True)}
    assert rows == {"Team 001": 2.5, "Team 002": 2, "Team 003": 1, "Team 004": -0.5}
    assert isinstance(rows["Team 002"], int)  # a whole number stays whole, not 2.0
    first = {row[1]: row[3] for row in book["Round 1"].iter_rows(min_row=4, values_only=True)}
    assert first == {"Team 001": 0.5, "Team 002": 0.5, "Team 003": 1, "Team 004": 0}


def test_api_gives_points_as_json_numbers_0_5_and_1(nanshan_event, api):
    body = api.get(f"/api/tournaments/{nanshan_event.slug}/standings/").content.decode()
    assert '"points":2.5' in body.replace(" ", "") and '"points":-0.5' in body.replace(" ", "")
    assert '"points":2,' in body.replace(" ", "")  # not 2.0
    public = api.get(f"/api/tournaments/{nanshan_event.slug}/public/standings/").json()
    shown = {row["name"]: row["points"] for row in public["results"]}
    assert shown == {"Team 001": 2.5, "Team 002": 2, "Team 003": 1, "Team 004": -0.5}


def test_public_page_and_pdf_show_0_5_not_0_50(nanshan_event, client):
    text = client.get("/t/nanshan/standings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "2.5" in text and "-0.5" in text
    assert "0.50" not in text and "2.0<" not in text and "2.50" not in text
    with translation.override("en"):
        pdf = pdf_text(StandingsPdf(nanshan_event).render().data)
    assert "2.5" in pdf and "-0.5" in pdf and "2.50" not in pdf


def test_the_organisers_standings_page_shows_0_5_not_0_50(nanshan_event, client):
    """The page's figures are exact (the ``points`` filter), where ``floatformat:"-2"``
    showed 0.50 and ``floatformat:"-1"`` would round 0.25 to 0.3."""
    from django.urls import reverse

    client.force_login(factories.organiser_of(nanshan_event))
    url = reverse("tournaments:manage-standings", args=[nanshan_event.slug])
    text = client.get(f"{url}?after_round=1", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert ">0.5<" in text and "0.50" not in text
    text = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert ">2.5<" in text and ">-0.5<" in text and "2.50" not in text


def test_a_teams_public_page_adds_its_points_exactly(nanshan_event, client):
    """Team 002: a draw (0.5), a draw (0.5) and a bye (1): running totals 0.5, 1, 2."""
    from django.urls import reverse

    team = nanshan_event.teams.get(name="Team 002")
    url = reverse("tournaments:public-team", args=[nanshan_event.slug, team.pk])
    text = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert ">0.5<" in text and ">2<" in text
    assert "1.0<" not in text and "0.50" not in text and "2.0<" not in text
