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
    phone.goto(f"{live_server.url}/arbitration/t/{arb.tournament.slug}/incidents/new/")
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
