"""Table assignment in bulk and the organiser's audit log."""

from __future__ import annotations

import pytest

from tests import factories
from tournaments import permissions
from tournaments.models import AuditLog, Role, TableAssignment
from tournaments.services import assignments
from tournaments.services.rounds import RoundError


@pytest.mark.parametrize(
    ("text", "tables"),
    [
        ("1-3, 5", [1, 2, 3, 5]),
        ("1 - 3，5、7～8", [1, 2, 3, 5, 7, 8]),
        ("10至12 12", [10, 11, 12]),
    ],
)
def test_table_ranges_are_read_as_a_referee_writes_them(text, tables):
    assert assignments.parse_tables(text) == tables


@pytest.mark.parametrize("text", ["", "a-3", "5-2", "0", "1-99999"])
def test_bad_table_ranges_are_refused_with_the_field(text):
    with pytest.raises(RoundError) as err:
        assignments.parse_tables(text)
    assert err.value.field == "tables"


def test_ranges_compress_table_lists():
    assert assignments.ranges([5, 1, 2, 3, 9, 10]) == "1-3, 5, 9-10"


@pytest.fixture
def world(db):
    event = factories.event(teams=4)
    return event, factories.organiser_of(event)


def test_forty_tables_to_two_referees_in_two_actions(world):
    event, organiser = world
    a, b = factories.user("裁判甲"), factories.user("裁判乙")
    assert assignments.assign_tables(event, organiser, a, "1-20") == 20
    assert assignments.assign_tables(event, organiser, b, "21-40") == 20
    assert permissions.can_write_table(a, event, 20)
    assert not permissions.can_write_table(a, event, 21)
    assert permissions.can_write_table(b, event, 40)
    assert event.roles.filter(role=Role.TABLE_REFEREE).count() == 2
    overview = {row.username: row.tables for row in assignments.overview(event)}
    assert overview == {"裁判甲": "1-20", "裁判乙": "21-40"}
    assert AuditLog.objects.filter(action="tables.assign").count() == 2


def test_replace_drops_the_referees_other_tables(world):
    event, organiser = world
    a = factories.user()
    assignments.assign_tables(event, organiser, a, "1-10")
    assignments.assign_tables(event, organiser, a, "5-6", replace=True)
    assert list(TableAssignment.objects.filter(user=a).values_list("table_number", flat=True)) == [
        5,
        6,
    ]


def test_only_an_organiser_assigns_tables(world):
    event, _organiser = world
    chief = factories.chief_of(event)
    with pytest.raises(RoundError):
        assignments.assign_tables(event, chief, chief, "1-5")
    assert not TableAssignment.objects.exists()


def test_assignment_page_takes_a_range(world, client):
    event, organiser = world
    factories.user("ref-a")
    client.force_login(organiser)
    url = f"/t/{event.slug}/manage/assignments/"
    response = client.post(url, {"username": "ref-a", "tables": "1-25"})
    assert response.status_code == 302
    assert TableAssignment.objects.filter(user__username="ref-a").count() == 25
    page = client.get(url).content.decode()
    assert "1-25" in page
    bad = client.post(url, {"username": "ref-a", "tables": "x"}, HTTP_ACCEPT_LANGUAGE="en")
    assert bad.status_code == 400 and "is not a table" in bad.content.decode()
    unknown = client.post(url, {"username": "nobody", "tables": "1"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "No user" in unknown.content.decode()


def test_audit_log_page_for_organiser_and_chief_filtered_by_team_and_kind(world, client):
    event, organiser = world
    a, b, *_rest = list(event.teams.order_by("name"))
    rnd = factories.round_(event, 1, [(a, b)], status="in_play")
    factories.result(rnd.matches.get())
    chief = factories.chief_of(event)
    client.force_login(chief)
    url = f"/t/{event.slug}/manage/audit/"
    everything = client.get(url).content.decode()
    assert "team.create" in everything and "result.submission" in everything
    only_results = client.get(url, {"kind": "result", "team": a.name}).content.decode()
    assert "result.submission" in only_results and "team.create" not in only_results
    by_table = client.get(url, {"table": "1"}).content.decode()
    assert "result.submission" in by_table
    referee = factories.grant(factories.user(), event, "table_referee", tables=[1])
    client.force_login(referee)
    assert client.get(url).status_code == 403
