"""Issue 24, forms that know the match, on a 390×844 zh-CN phone: choosing the match offers its
four players (each with team and seat), choosing a player preselects the team; the incident
stored names both."""

import pytest

from arbitration.models import Incident
from tests.arbitration import conftest as fixtures

arb = fixtures.arb


@pytest.mark.django_db(transaction=True)
def test_rule_the_incident_form_offers_the_four_players_and_preselects_the_team(
    arb, live_server, phone, login
):
    login(phone, live_server, arb.referee)
    phone.goto(f"{live_server.url}/arbitration/t/{arb.event.slug}/incidents/new/")
    assert phone.locator("select[name=player] option").count() == 1  # "---------": the match first
    phone.select_option("select[name=match]", str(arb.match.pk))
    players = phone.locator("select[name=player] option").all_inner_texts()[1:]
    home, away = arb.teams[0].name, arb.teams[1].name
    assert len(players) == 4
    assert [p.split(" · ")[2] for p in players] == ["东", "南", "西", "北"]
    assert [p.split(" · ")[1] for p in players] == [home, away, home, away]
    north = arb.teams[1].players.get(seat_order=2)
    phone.select_option("select[name=player]", str(north.pk))
    assert phone.locator("select[name=team]").input_value() == str(arb.teams[1].pk)
    phone.select_option("select[name=category]", "signalling")
    phone.fill("textarea[name=description]", "北家敲桌")
    with phone.expect_navigation():
        phone.click("#incident-form button[type=submit]")
    incident = Incident.objects.get()
    assert incident.player == north and incident.team == arb.teams[1]


@pytest.mark.django_db(transaction=True)
def test_rule_the_table_page_links_the_incident_form_for_its_match(table, phone):
    """From the referee's table page, one tap opens the incident form with the table's match
    chosen and its four players offered (team and seat); the incident stored is that match's."""
    link = phone.locator("#incident-link")
    assert link.inner_text() == "记录本桌事件"
    assert link.bounding_box()["height"] >= 44
    with phone.expect_navigation():
        link.click()
    assert phone.locator("select[name=match]").input_value() == str(table.match.pk)
    players = phone.locator("select[name=player] option").all_inner_texts()[1:]
    home, away = table.teams[0].name, table.teams[1].name
    assert [p.split(" · ")[1] for p in players] == [home, away, home, away]
    assert [p.split(" · ")[2] for p in players] == ["东", "南", "西", "北"]
    phone.select_option("select[name=category]", "signalling")
    phone.fill("textarea[name=description]", "南家敲桌")
    with phone.expect_navigation():
        phone.click("#incident-form button[type=submit]")
    incident = Incident.objects.get()
    assert incident.match == table.match and incident.logged_by == table.referee


@pytest.mark.django_db(transaction=True)
def test_the_table_key_page_has_no_incident_link_without_a_login(table, phone, live_server):
    from tournaments.services import table_keys

    key = table_keys.issue(table.event, 1, table.chief)
    phone.context.clear_cookies()
    phone.goto(f"{live_server.url}/table/{key.key}/")
    phone.wait_for_selector("#call-chief")
    assert phone.locator("#incident-link").count() == 0
