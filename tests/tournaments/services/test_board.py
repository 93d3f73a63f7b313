"""The chief referee's operations board: each table's state, filters, bulk confirm."""

from __future__ import annotations

import pytest

from tests import factories
from tournaments.models import ResultVersion, Round
from tournaments.services import board, results
from tournaments.services.results import ResultForbidden


@pytest.fixture
def event(db):
    """Round 1 in play: 5 tables and a bye; referee A holds tables 1-3, B tables 4-5."""
    tournament = factories.tournament(teams=11)
    teams = list(tournament.teams.order_by("name"))
    pairs = [(teams[i], teams[i + 1]) for i in range(0, 10, 2)]
    rnd = factories.round_(tournament, 1, pairs, byes=[teams[10]], status=Round.Status.IN_PLAY)
    a = factories.grant(factories.user("ref-a"), tournament, "table_referee", tables=[1, 2, 3])
    b = factories.grant(factories.user("ref-b"), tournament, "table_referee", tables=[4, 5])
    chief = factories.chief_of(tournament)
    return tournament, rnd, a, b, chief


def table(rnd, number):
    return rnd.matches.get(table_number=number)


def enter(match, user, deals=factories.WIN_BY_3):
    latest = results.latest_version(match)
    record = {"game": "guandan", "deals": deals}
    return results.submit(match, record, results.Actor(user), latest.number if latest else 0)


def confirm_as_captain(match, team):
    captain = factories.grant(factories.user(), match.round.tournament, "captain", team=team)
    results.confirm(match, results.latest_version(match).number, results.Actor(captain))


def test_board_shows_each_kind_of_table(event):
    tournament, rnd, a, b, chief = event
    enter(table(rnd, 2), a)  # submitted
    enter(table(rnd, 3), a)
    confirm_as_captain(table(rnd, 3), table(rnd, 3).home)  # one team confirmed
    factories.result(table(rnd, 4))  # confirmed by the chief
    factories.result(table(rnd, 5))
    enter(table(rnd, 5), b, deals=[{"finish": ["N", "S", "E", "W"]}])  # changed
    states = {row.table: row.state for row in board.board(rnd)}
    assert states == {
        1: board.NOT_STARTED,
        2: board.SUBMITTED,
        3: board.HALF_CONFIRMED,
        4: board.CONFIRMED,
        5: board.CHANGED,
        None: board.BYE,
    }
    assert [row.table for row in board.board(rnd, referee="ref-b")] == [4, 5]
    assert [row.table for row in board.board(rnd, state=board.SUBMITTED)] == [2]


def test_board_reads_a_round_in_a_fixed_number_of_queries(event, django_assert_max_num_queries):
    tournament, rnd, a, _b, _chief = event
    for number in (1, 2, 3):
        enter(table(rnd, number), a)
    with django_assert_max_num_queries(5):
        rows = board.board(rnd)
    assert len(rows) == 6


def test_chief_confirms_the_selected_tables_at_once(event):
    tournament, rnd, a, b, chief = event
    for number in (1, 2, 3):
        enter(table(rnd, number), a)
    done, refused = board.bulk_confirm(rnd, chief, [table(rnd, n).pk for n in (1, 2, 3, 4)])
    assert done == 3 and len(refused) == 1 and "4" in refused[0]
    assert ResultVersion.objects.filter(match__round=rnd, is_counting=True).count() == 3


def test_only_the_chief_confirms_in_bulk(event):
    tournament, rnd, a, _b, _chief = event
    enter(table(rnd, 1), a)
    with pytest.raises(ResultForbidden):
        board.bulk_confirm(rnd, factories.organiser_of(tournament), [table(rnd, 1).pk])
    assert not ResultVersion.objects.filter(is_counting=True).exists()


def test_board_page_filters_and_confirms(event, client):
    tournament, rnd, a, _b, chief = event
    enter(table(rnd, 1), a)
    enter(table(rnd, 2), a)
    client.force_login(chief)
    url = f"/t/{tournament.slug}/manage/rounds/1/board/"
    page = client.get(url, {"state": "submitted"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert page.count('name="match"') == 2 and "submitted, awaiting confirmation" in page
    response = client.post(url, {"match": [table(rnd, 1).pk, table(rnd, 2).pk]})
    assert response.status_code == 302
    assert ResultVersion.objects.filter(is_counting=True).count() == 2
    client.force_login(a)
    assert client.get(url).status_code == 403
