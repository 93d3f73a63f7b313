"""Issue 24, forms that know the match: the incident form offers the match's four players,
each named with team and seat (two players of one name in the event no longer look alike),
and the ruling form the match's two teams with their seated players; a chosen player
preselects the team."""

from __future__ import annotations

import re

from django.urls import reverse
from django.utils import translation

from arbitration.forms import IncidentForm, RulingForm
from arbitration.models import Incident
from arbitration.services.incidents import log_incident
from tournaments.models import Player


def url(name, arb, *args):
    return reverse(f"arbitration:{name}", args=[arb.event.slug, *args])


def same_names(arb):
    """Two players of other teams share the names of table 1's players (李军, 张超)."""
    names = {arb.teams[0]: ("李军", "张超"), arb.teams[2]: ("李军", "张超")}
    for team, (first, second) in names.items():
        Player.objects.filter(team=team, seat_order=1).update(name=first)
        Player.objects.filter(team=team, seat_order=2).update(name=second)


def options(html: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S)[1]
    return [o for o in re.findall(r"<option[^>]*>([^<]*)</option>", select) if o != "---------"]


def test_rule_the_incident_form_offers_the_matchs_four_players_with_team_and_seat(arb, client):
    same_names(arb)
    client.force_login(arb.referee)
    page = client.get(url("incident-add", arb) + f"?match={arb.match.pk}")
    html = page.content.decode()
    players = options(html, "player")
    home, away = arb.teams[0].name, arb.teams[1].name
    assert len(players) == 4, players  # not the event's 8 (or 48)
    assert players[0] == f"李军 · {home} · 东"  # table order: 东 南 西 北
    assert players[2] == f"张超 · {home} · 西"
    assert {p.split(" · ")[1] for p in players} == {home, away}
    assert [t.split(" · ")[0] for t in options(html, "team")] == [home, away]


def test_rule_the_incident_form_without_a_match_asks_for_the_match_first(arb, client):
    client.force_login(arb.referee)
    html = client.get(url("incident-add", arb)).content.decode()
    assert options(html, "player") == []
    assert "先选择比赛" in html
    # the page holds the current round's matches' players for the script to offer
    assert f'"{arb.match2.pk}"' in html


def test_rule_a_chosen_player_preselects_the_team_and_another_matchs_player_is_refused(arb):
    player = arb.teams[1].players.get(seat_order=2)
    form = IncidentForm(
        {
            "match": arb.match.pk,
            "player": player.pk,
            "category": "signalling",
            "description": "x",
            "timed": "play",
        },
        event=arb.event,
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["team"] == arb.teams[1]
    stranger = arb.teams[2].players.first()  # table 2's player
    form = IncidentForm(
        {
            "match": arb.match.pk,
            "player": stranger.pk,
            "category": "signalling",
            "description": "x",
        },
        event=arb.event,
    )
    assert not form.is_valid() and "player" in form.errors
    wrong = IncidentForm(
        {
            "match": arb.match.pk,
            "team": arb.teams[0].pk,
            "player": player.pk,
            "category": "signalling",
            "description": "x",
        },
        event=arb.event,
    )
    assert not wrong.is_valid() and "player" in wrong.errors


def test_rule_an_incident_logged_by_its_player_alone_names_the_players_team(arb, client):
    player = arb.teams[1].players.get(seat_order=1)
    client.force_login(arb.referee)
    response = client.post(
        url("incident-add", arb),
        {
            "match": arb.match.pk,
            "player": player.pk,
            "category": "signalling",
            "description": "南家敲桌",
        },
    )
    assert response.status_code == 302
    incident = Incident.objects.get()
    assert incident.player == player and incident.team == arb.teams[1]


def test_rule_the_ruling_form_offers_the_matchs_two_teams_with_their_seated_players(arb, client):
    same_names(arb)
    incident = log_incident(
        arb.event,
        arb.referee,
        category="signalling",
        description="x",
        match=arb.match,
        team=arb.teams[0],
    )
    with translation.override("zh-hans"):
        form = RulingForm(event=arb.event, match=arb.match)
        labels = [label for value, label in form.fields["team"].choices if value]
    assert len(labels) == 2
    assert labels[0] == f"{arb.teams[0].name} · 东西 · 李军 东 / 张超 西"
    client.force_login(arb.chief)
    html = client.get(url("incident", arb, incident.pk)).content.decode()
    teams = options(html, "team")
    assert len(teams) == 2 and "李军 东" in teams[0]
    assert re.search(rf'<option value="{arb.teams[0].pk}" selected>', html)  # preselected
