"""Unit standings from stored results: page, exports, and the idiom-chain hint ruling."""

from __future__ import annotations

from django.test import TestCase

from tests import factories
from tests.readers import download, pdf_text, workbook
from tournaments.services.ranking_adjustments import add_ranking_adjustment
from tournaments.services.units import unit_standings_for
from tournaments.standings.service import standings_for


def test_chinese_event_unit_standings_sum_the_best_two_teams(chinese_event):
    rows = unit_standings_for(chinese_event)
    teams = {row.team: row for row in standings_for(chinese_event)}
    assert {row.unit for row in rows} == {"苏州", "无锡"}
    for row in rows:
        assert len(row.teams) == 2
        assert row.points == sum(teams[team].points for team in row.teams)
    assert rows[0].points >= rows[1].points


def test_unit_adjustment_moves_the_unit_not_the_team(chinese_event):
    first = unit_standings_for(chinese_event)[0]
    team = chinese_event.teams.get(pk=first.teams[0])
    before = [row.team for row in standings_for(chinese_event)]
    add_ranking_adjustment(team, 1, None, "spectator hint", unit=True)
    after = unit_standings_for(chinese_event)
    assert after[1].unit == first.unit and after[1].moved_down == 1
    assert [row.team for row in standings_for(chinese_event)] == before


def test_unit_page_and_exports_are_public_and_chinese(chinese_event, client):
    with TestCase.captureOnCommitCallbacks(execute=True):  # the page asks for its files
        page = client.get(f"/t/{chinese_event.slug}/units/")
    assert page.status_code == 200 and "苏州" in page.content.decode()
    sheet = workbook(download(client, f"/t/{chinese_event.slug}/export/units-xlsx/").content).active
    column = {cell.value for cell in next(sheet.iter_cols(min_col=2, max_col=2))}
    assert {"苏州", "无锡"} <= column
    pdf = download(client, f"/t/{chinese_event.slug}/export/units-pdf/")
    assert pdf.status_code == 200 and "无锡" in pdf_text(pdf.content)


def test_a_unit_adjustment_names_the_teams_unit(db):
    event = factories.event(teams=4, units=2, game="chengyu")
    team = event.teams.order_by("name").first()
    add_ranking_adjustment(team, 1, None, "hint", unit=True)
    assert event.ranking_adjustments.get().unit == team.unit
