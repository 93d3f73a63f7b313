"""Every role's home (issue 24): the front page after login links each role's home in each
event; the chief's desk (late teams, calls and disputes, the board per round with counts,
incidents, appeals in progress) and its counts as JSON; the referee's tables with their state
and next action; the captain's match and the team's rulings with the appeal button."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from tests import factories


@pytest.fixture
def demo(db, media):
    from tournaments.models import Event
    from tournaments.services import demo as service

    service.load_demo()
    users = {u.username: u for u in get_user_model().objects.all()}
    return Event.objects.get(slug=service.DEMO_SLUG), users


def page(client, user, url, language="zh-hans"):
    client.force_login(user)
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    return response, response.content.decode()


def test_login_lands_on_the_front_page_with_every_home_of_the_user(demo, client):
    event, users = demo
    other = factories.event(teams=2, name="第二届", slug="second")
    factories.grant(users["chief"], other, "committee")
    response = client.post(reverse("login"), {"username": "chief", "password": "paisai-demo"})
    assert response.status_code == 302 and response.url == reverse("tournaments:home")
    text = client.get(response.url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert reverse("tournaments:chief-desk", args=[event.slug]) in text
    assert reverse("arbitration:committee", args=["second"]) in text  # a role in another event


@pytest.mark.parametrize(
    ("username", "home"),
    [
        ("organiser", "tournaments:console"),
        ("chief", "tournaments:chief-desk"),
        ("referee1", "tournaments:my-tables"),
        ("captain1", "tournaments:my-match"),
        ("committee1", "arbitration:committee"),
    ],
)
def test_each_role_s_home_is_linked_from_the_front_page_and_the_event(demo, client, username, home):
    event, users = demo
    url = reverse(home, args=[event.slug])
    for where in (reverse("tournaments:home"), reverse("tournaments:detail", args=[event.slug])):
        assert f'href="{url}"' in page(client, users[username], where)[1]
    assert page(client, users[username], url)[0].status_code == 200


def test_chief_desk_links_the_board_and_attendance_of_every_round(demo, client):
    event, users = demo
    response, text = page(
        client, users["chief"], reverse("tournaments:chief-desk", args=[event.slug])
    )
    assert response.status_code == 200
    for rnd in event.rounds.exclude(status="draft"):
        assert reverse("tournaments:board", args=[event.slug, rnd.number]) in text
        assert reverse("tournaments:attendance", args=[event.slug, rnd.number]) in text
    assert reverse("arbitration:chief", args=[event.slug]) in text
    assert 'data-count="late"' in text and "chief_desk.js" in text


def test_chief_desk_counts_follow_the_event(demo, client):
    from tournaments.services import calls
    from tournaments.services.results import Actor

    event, users = demo
    url = reverse("tournaments:chief-desk-counts", args=[event.slug])
    client.force_login(users["chief"])
    before = json.loads(client.get(url).content)["counts"]
    rnd = event.rounds.get(number=1)
    match = rnd.matches.exclude(away=None).filter(versions__isnull=True).order_by("table_number")[0]
    calls.raise_call(match, Actor(users["referee1"]), "需要裁判长")
    after = json.loads(client.get(url).content)["counts"]
    assert after["queue"] == before["queue"] + 1 and after["calls"] == before["calls"] + 1
    assert after["r1-not_started"] == before["r1-not_started"]
    assert {"late", "incidents", "appeals", "r1-waiting", "r1-confirmed"} <= set(after)


def test_chief_desk_counts_late_teams_once_the_clock_passes_the_limit(demo, client):
    event, users = demo
    rnd = event.rounds.get(number=1)
    rnd.started_at = timezone.now() - timedelta(minutes=30)
    rnd.save(update_fields=["started_at"])
    client.force_login(users["chief"])
    counts = json.loads(
        client.get(reverse("tournaments:chief-desk-counts", args=[event.slug])).content
    )["counts"]
    from tournaments.services import board

    assert counts["late"] == sum(len(t.teams) for t in board.late_tables(rnd)) > 0


@pytest.mark.parametrize("username", ["referee1", "captain1", "committee1"])
def test_the_desk_and_its_counts_refuse_other_roles(demo, client, username):
    event, users = demo
    client.force_login(users[username])
    for name in ("tournaments:chief-desk", "tournaments:chief-desk-counts"):
        assert client.get(reverse(name, args=[event.slug])).status_code == 403


def test_referee_sees_each_assigned_table_with_its_state_and_next_action(demo, client):
    from tournaments.models import TableAssignment

    event, users = demo
    response, text = page(
        client, users["referee1"], reverse("tournaments:my-tables", args=[event.slug])
    )
    tables = TableAssignment.objects.filter(event=event, user=users["referee1"])
    assert tables.count() > 0
    for assigned in tables:
        assert f'id="my-table-{assigned.table_number}"' in text
        assert reverse("tournaments:table-entry", args=[event.slug, assigned.table_number]) in text
    assert "入座" in text  # tables without a result: seat the teams and enter it


def test_captain_sees_the_match_with_confirm_or_dispute_and_rulings_with_appeal(demo, client):
    from arbitration.services.incidents import log_incident
    from arbitration.services.rulings import rule
    from tournaments.permissions import captain_team_ids
    from tournaments.services import result_entry  # noqa: F401 - results are the demo's

    event, users = demo
    [team_id] = captain_team_ids(users["captain1"], event)
    rnd = event.rounds.get(number=1)
    from django.db.models import Q

    match = rnd.matches.get(Q(home_id=team_id) | Q(away_id=team_id))
    incident = log_incident(
        event,
        users["chief"],
        category="signalling",
        description="敲桌子",
        match=match,
        team=event.teams.get(pk=team_id),
    )
    [ruling] = rule(incident, users["chief"], step="warning", reason="第一次警告")
    if not match.versions.exists():
        factories.result(match, counting=False, by=users["chief"])
    response, text = page(
        client, users["captain1"], reverse("tournaments:my-match", args=[event.slug])
    )
    assert response.status_code == 200
    assert reverse("tournaments:match-result", args=[event.slug, match.pk]) in text
    assert "确认或提出异议" in text
    assert reverse("arbitration:appeal-add", args=[event.slug, ruling.pk]) in text
    assert 'class="countdown"' in text  # the filing deadline, counting down


def test_captain_home_refuses_an_official_without_a_team(demo, client):
    event, users = demo
    client.force_login(users["referee1"])
    assert client.get(reverse("tournaments:my-match", args=[event.slug])).status_code == 403


@pytest.mark.django_db
def test_my_tables_shows_each_tables_seat_marks_and_what_is_left_to_do(client):
    """A referee back on "my tables" after seating sees which tables are seated (issue 24's
    event-day walk): both seated, one team not yet (named), or nothing marked."""
    from tournaments.services.checkin import mark_seated

    world = factories.board_round()
    first, second, third = world.round.matches.filter(table_number__lte=3).order_by("table_number")
    for team in (first.home, first.away, second.home):
        mark_seated(first if team in (first.home, first.away) else second, team, world.a)
    response, text = page(
        client, world.a, reverse("tournaments:my-tables", args=[world.event.slug])
    )
    cards = {t.number: t for t in response.context["tables"]}
    assert str(cards[1].label) == "两队均已入座" and not cards[1].urgent
    assert str(cards[1].next_action) == "两队均已入座：随打随录各副牌"
    assert str(cards[2].label) == f"{second.away.name} 未入座" and cards[2].urgent
    assert second.away.name in str(cards[2].next_action)
    assert str(cards[3].label) == "未开始" and cards[3].urgent
    table_1 = text.split('id="my-table-1"')[1].split('id="my-table-2"')[0]
    assert "打开本桌：入座并录入" not in table_1 and "打开本桌" in table_1


@pytest.mark.django_db
def test_my_tables_logs_an_incident_at_a_table_with_its_match_chosen(client):
    """Each table on "my tables" links the incident form with its match chosen: the form
    offers that match's four players, not the event's list."""
    world = factories.board_round()
    match = world.round.matches.get(table_number=2)
    _response, text = page(
        client, world.a, reverse("tournaments:my-tables", args=[world.event.slug])
    )
    link = reverse("arbitration:incident-add", args=[world.event.slug]) + f"?match={match.pk}"
    assert f'href="{link}"' in text
    form = client.get(link, HTTP_ACCEPT_LANGUAGE="zh-hans").context["form"]
    assert form.chosen_match == match
    assert len([value for value, _label in form.fields["player"].choices if value]) == 4


@pytest.mark.django_db
def test_the_table_page_links_back_to_my_tables_for_a_table_referee(client):
    world = factories.board_round()
    table = reverse("tournaments:table-entry", args=[world.event.slug, 1])
    back = reverse("tournaments:my-tables", args=[world.event.slug])
    _response, text = page(client, world.a, table)
    assert f'id="my-tables-link" href="{back}"' in text
    _response, text = page(client, world.chief, table)  # the chief has the desk instead
    assert 'id="my-tables-link"' not in text
