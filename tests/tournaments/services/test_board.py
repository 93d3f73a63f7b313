"""The chief referee's operations board: each table's state, filters (referee, state, a range
of tables), bulk confirm, the queue of calls and disputes, late forfeits from the board."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests import factories
from tournaments.models import AuditLog, RefereeCall, ResultConfirmation, ResultVersion, Round
from tournaments.services import (
    board,
    calls,
    checkin,
    disputes,
    result_confirm,
    result_entry,
    results,
    rounds,
    table_keys,
)
from tournaments.services.results import ResultForbidden
from tournaments.services.rounds import RoundError
from tournaments.standings.service import revision

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def world(db):
    """Round 1 in play: 5 tables and a bye; referee A holds tables 1-3, B tables 4-5."""
    ops = factories.board_round(status=Round.Status.IN_PLAY)
    return ops.event, ops.round, ops.a, ops.b, ops.chief


def table(rnd, number):
    return rnd.matches.get(table_number=number)


def enter(match, user, deals=factories.WIN_BY_3):
    latest = results.latest_version(match)
    record = {"game": "guandan", "deals": deals}
    return result_entry.submit(match, record, results.Actor(user), latest.number if latest else 0)


def confirm_as_captain(match, team):
    captain = factories.grant(factories.user(), match.round.event, "captain", team=team)
    result_confirm.confirm(match, results.latest_version(match).number, results.Actor(captain))


def test_board_shows_each_kind_of_table(world):
    event, rnd, a, b, chief = world
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


def test_board_reads_a_round_in_a_fixed_number_of_queries(world, django_assert_max_num_queries):
    event, rnd, a, _b, _chief = world
    for number in (1, 2, 3):
        enter(table(rnd, number), a)
    with django_assert_max_num_queries(5):
        rows = board.board(rnd)
    assert len(rows) == 6


def test_chief_confirms_the_selected_tables_at_once(world):
    event, rnd, a, b, chief = world
    for number in (1, 2, 3):
        enter(table(rnd, number), a)
    done, refused = board.bulk_confirm(rnd, chief, [table(rnd, n).pk for n in (1, 2, 3, 4)])
    assert done == 3 and len(refused) == 1 and "4" in refused[0]
    assert ResultVersion.objects.filter(match__round=rnd, is_counting=True).count() == 3


def test_only_the_chief_confirms_in_bulk(world):
    event, rnd, a, _b, _chief = world
    enter(table(rnd, 1), a)
    with pytest.raises(ResultForbidden):
        board.bulk_confirm(rnd, factories.organiser_of(event), [table(rnd, 1).pk])
    assert not ResultVersion.objects.filter(is_counting=True).exists()


def test_board_page_filters_and_confirms(world, client):
    event, rnd, a, _b, chief = world
    enter(table(rnd, 1), a)
    enter(table(rnd, 2), a)
    client.force_login(chief)
    url = f"/t/{event.slug}/manage/rounds/1/board/"
    page = client.get(url, {"state": "submitted"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert page.count('name="match"') == 2 and "submitted, awaiting confirmation" in page
    response = client.post(url, {"match": [table(rnd, 1).pk, table(rnd, 2).pk]})
    assert response.status_code == 302
    assert ResultVersion.objects.filter(is_counting=True).count() == 2
    client.force_login(a)
    assert client.get(url).status_code == 403


# --- the zone filter: a range of tables ---------------------------------------------------


def test_board_filters_by_a_range_of_tables(world):
    event, rnd, a, b, chief = world
    tables = board.table_range("2", "4")
    assert [row.table for row in board.board(rnd, tables=tables)] == [2, 3, 4]
    assert board.table_range(" 4", "2") == tables  # reversed ends are swapped
    assert [row.table for row in board.board(rnd, tables=board.table_range("", "2"))] == [1, 2]
    assert [row.table for row in board.board(rnd, tables=board.table_range("5", ""))] == [5]
    # the zone and the referee filter together; a bye sits in no zone
    assert [row.table for row in board.board(rnd, "ref-b", tables=tables)] == [4]
    assert None in [row.table for row in board.board(rnd, tables=board.table_range())]
    for low, high, field in (("x", "", "from"), ("1", "0", "to"), ("1", "-3", "to")):
        with pytest.raises(board.BoardError) as refused:
            board.table_range(low, high)
        assert refused.value.field == field


# --- calls to the chief referee -------------------------------------------------------------


def test_a_call_from_a_table_waits_in_the_queue_until_the_chief_answers(world, time_machine):
    event, rnd, a, b, chief = world
    time_machine.move_to(START, tick=False)
    call, new = calls.raise_call(table(rnd, 2), factories.actor(a), "  手机没电了 ")
    assert new and call.note == "手机没电了" and call.raised_by_name == "ref-a"
    assert call.raised_via == RefereeCall.Via.REFEREE
    again, new = calls.raise_call(table(rnd, 2), factories.actor(a), "again")
    assert again.pk == call.pk and not new  # one open call per table: a second press adds none
    time_machine.move_to(START + timedelta(minutes=7), tick=False)
    [item] = board.queue(rnd)
    assert (item.kind, item.table, item.minutes, item.note) == ("call", 2, 7, "手机没电了")
    assert item.match_id == table(rnd, 2).pk
    assert board.queue(rnd, board.table_range("3", "5")) == []  # another zone's chief
    calls.answer(call, chief)
    stored = RefereeCall.objects.get()
    assert stored.answered_by_name == chief.username and stored.answered_at == START + timedelta(
        minutes=7
    )
    assert board.queue(rnd) == []
    with pytest.raises(calls.CallError, match="already answered"):
        calls.answer(stored, chief)
    entries = AuditLog.objects.filter(action__startswith="call.").order_by("pk")
    assert [(e.action, e.actor_name, e.data["table"]) for e in entries] == [
        ("call.raise", "ref-a", 2),
        ("call.answer", chief.username, 2),
    ]
    assert entries[1].data["waited_seconds"] == 7 * 60
    # answered, the table may call again
    assert calls.raise_call(table(rnd, 2), factories.actor(a))[1]


def test_only_the_tables_referee_or_its_device_calls_the_chief(world):
    event, rnd, a, b, chief = world
    organiser = factories.organiser_of(event)
    for who in (factories.actor(b), factories.actor(), factories.actor(organiser)):
        with pytest.raises(calls.CallForbidden):
            calls.raise_call(table(rnd, 2), who)
    other_key = table_keys.issue(event, 3, chief)
    with pytest.raises(calls.CallForbidden):
        calls.raise_call(table(rnd, 2), factories.actor(key=other_key))
    assert not RefereeCall.objects.exists()
    key = table_keys.issue(event, 2, chief)  # table 2's only referee is ref-a
    call, _new = calls.raise_call(table(rnd, 2), factories.actor(key=key), "")
    assert (call.raised_via, call.raised_by_name) == (RefereeCall.Via.TABLE_KEY, "ref-a")
    assert AuditLog.objects.get(action="call.raise").data["table_key"] == key.pk
    table_keys.revoke(key, chief)
    key.refresh_from_db()
    RefereeCall.objects.update(answered_at=START)
    with pytest.raises(calls.CallForbidden):  # a revoked link calls no more
        calls.raise_call(table(rnd, 2), factories.actor(key=key))
    assert calls.raise_call(table(rnd, 5), factories.actor(chief))[1]  # the chief: any table
    with pytest.raises(calls.CallError):
        calls.raise_call(rnd.matches.get(table_number=None), factories.actor(chief))
    with pytest.raises(calls.CallError, match="short"):
        calls.raise_call(table(rnd, 1), factories.actor(a), "x" * 301)
    assert RefereeCall.objects.count() == 2


def test_only_the_chief_answers_a_call(world):
    event, rnd, a, b, chief = world
    call, _new = calls.raise_call(table(rnd, 1), factories.actor(a))
    for who in (a, factories.organiser_of(event)):
        with pytest.raises(calls.CallForbidden):
            calls.answer(call, who)
    assert RefereeCall.objects.get().is_open


def test_no_call_from_a_finalised_round(world):
    event, rnd, a, b, chief = world
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.FINALISED)
    rnd.refresh_from_db()
    with pytest.raises(calls.CallError, match="not being played"):
        calls.raise_call(table(rnd, 1), factories.actor(a))
    assert not RefereeCall.objects.exists()


def test_the_queue_lists_calls_and_disputes_oldest_first(world, time_machine):
    event, rnd, a, b, chief = world
    time_machine.move_to(START, tick=False)
    enter(table(rnd, 4), b)
    captain = factories.grant(factories.user("cap"), event, "captain", team=table(rnd, 4).away)
    disputes.raise_dispute(table(rnd, 4), 1, factories.actor(captain), "deal 1 was NS")
    time_machine.move_to(START + timedelta(minutes=5), tick=False)
    calls.raise_call(table(rnd, 1), factories.actor(a), "rules question")
    time_machine.move_to(START + timedelta(minutes=12), tick=False)
    assert [(i.kind, i.table, i.minutes, i.note, i.by) for i in board.queue(rnd)] == [
        ("dispute", 4, 12, "deal 1 was NS", "cap"),
        ("call", 1, 7, "rules question", "ref-a"),
    ]
    assert [i.table for i in board.queue(rnd, board.table_range("4", "5"))] == [4]


# --- late forfeits from the board ----------------------------------------------------------


@pytest.fixture
def started(db, time_machine):
    """The board's round published and its clock started at START; every team seated but
    table 1's North–South and both teams of table 2."""
    ops = factories.board_round(status=Round.Status.PUBLISHED)
    time_machine.move_to(START, tick=False)
    rnd = rounds.start_clock(ops.round, ops.organiser)
    for match in rnd.matches.exclude(away=None).exclude(table_number=2):
        checkin.mark_seated(match, match.home, ops.chief)
        if match.table_number != 1:
            checkin.mark_seated(match, match.away, ops.chief)
    ops.round = rnd
    return ops


def test_late_forfeits_proposed_on_the_board_from_start_plus_10_minutes(started, time_machine):
    """Seed: "比赛宣布开始10分钟后…仍未…就位…作弃权论处": 9:59 proposes nothing, 10:00 does; the
    chief ticks TEAMS (a forfeit is per team)."""
    rnd, chief = started.round, started.chief
    time_machine.move_to(START + timedelta(minutes=9, seconds=59), tick=False)
    assert board.late_tables(rnd) == []  # 9:59 is not late yet
    time_machine.move_to(START + timedelta(minutes=10), tick=False)
    late = board.late_tables(rnd)
    assert [(e.match.table_number, [t.side for t in e.teams], e.both) for e in late] == [
        (1, ["NS"], False),
        (2, ["EW", "NS"], True),
    ]
    assert [e.match.table_number for e in board.late_tables(rnd, board.table_range("2", "9"))] == [
        2
    ]
    with pytest.raises(board.BoardError):
        board.confirm_forfeits(rnd, chief, [])  # nothing selected: nothing ruled
    with pytest.raises(RoundError):
        board.confirm_forfeits(rnd, started.organiser, [table(rnd, 1).away_id])
    assert not ResultVersion.objects.exists()
    done = board.confirm_forfeits(rnd, chief, [table(rnd, 1).away_id])
    assert done.tables == 1 and [t.team.pk for t in done.teams] == [table(rnd, 1).away_id]
    version = ResultVersion.objects.get()
    assert version.match == table(rnd, 1) and version.is_counting
    assert version.record["forfeit"] == "NS"
    assert [e.match.table_number for e in board.late_tables(rnd)] == [2]
    second = table(rnd, 2)
    assert board.confirm_forfeits(rnd, chief, [str(second.home_id), second.away_id]).tables == 1
    assert ResultVersion.objects.get(match=second).record["forfeit"] == "both"
    assert board.late_tables(rnd) == []


# --- volume: 250 tables ---------------------------------------------------------------------


def volume_round(tables: int = 250):
    """Round 1 in play with ``tables`` tables, each holding a submitted result (a referee's
    entry, not confirmed): the board at 500 teams."""
    event = factories.event(teams=tables * 2)
    teams = list(event.teams.order_by("pk"))
    rnd = factories.round_(
        event, 1, list(zip(teams[::2], teams[1::2], strict=True)), status=Round.Status.IN_PLAY
    )
    referee = factories.grant(factories.user(), event, "table_referee", tables=range(1, tables + 1))
    factories.submitted_results(list(rnd.matches.order_by("table_number")), referee)
    return event, rnd, factories.chief_of(event)


@pytest.mark.slow  # a scale test: make test runs it, make test-fast does not
def statements(captured) -> list[str]:
    """The statements of a request, a bulk insert counted once however many batches the
    database's limit on parameters splits it into (SQLite's 999 makes 250 audit entries four
    INSERTs; PostgreSQL's 65,535 one): the number the code asks for, whatever the database."""
    kept: list[str] = []
    for query in captured.captured_queries:
        sql = query["sql"]
        head = sql.split(" VALUES ", 1)[0]
        if sql.startswith("INSERT ") and kept and kept[-1].split(" VALUES ", 1)[0] == head:
            continue
        kept.append(sql)
    return kept


def test_board_reads_and_bulk_confirms_in_the_same_queries_at_25_and_250_tables(
    db, client, django_assert_max_num_queries
):
    """The board reads a round, and the chief confirms every submitted result of it from the
    board page (select all submitted → confirm: one POST), in a fixed number of queries
    whatever its size (the issue measured 2,760 queries and 32 s for 250 tables, a dozen a
    table). Each result still gets its confirmation, its counting flag and its own audit
    entry; the event's revision is bumped once; the round completes."""
    queries = {}
    for tables in (25, 250):
        event, rnd, chief = volume_round(tables)
        with django_assert_max_num_queries(8):
            rows = board.read(rnd)
        assert len(rows) == tables and {row.state for row in rows} == {board.SUBMITTED}
        assert all(row.score is not None and row.score.counts for row in rows)
        selection = [f"{row.match.pk}:{row.latest.number}" for row in rows]
        before = revision(event)
        client.force_login(chief)
        url = f"/t/{event.slug}/manage/rounds/1/board/"
        started = time.monotonic()
        with CaptureQueriesContext(connection) as captured:
            response = client.post(url, {"match": selection})
        took = time.monotonic() - started
        assert response.status_code == 302
        asked = statements(captured)
        assert len(asked) <= 24, "\n".join(asked)  # the request's own included
        queries[tables] = len(asked)
        print(f"\nbulk confirm of {tables} tables: {len(asked)} statements, {took:.2f} s")
        counting = ResultVersion.objects.filter(match__round=rnd, is_counting=True)
        assert counting.count() == tables
        assert set(counting.values_list("confirmed_by_name", flat=True)) == {chief.username}
        assert (
            ResultConfirmation.objects.filter(
                version__match__round=rnd, capacity="chief", user=chief
            ).count()
            == tables
        )
        entries = AuditLog.objects.filter(event=event, action="result.confirm")
        assert sorted(entries.values_list("table_number", flat=True)) == list(range(1, tables + 1))
        entry = entries.get(table_number=1)
        assert entry.actor == chief and entry.target_id == str(rows[0].match.pk)
        assert entry.data == {"version": 1, "capacity": "chief", "team": None, "counting": True}
        assert {entry.team_id, entry.other_team_id} == {
            rows[0].match.home_id,
            rows[0].match.away_id,
        }
        assert revision(event) == before + 1
        rnd.refresh_from_db()
        assert rnd.status == Round.Status.COMPLETE
    assert queries[25] == queries[250]


def test_bulk_confirm_checks_each_table_as_one_confirmation_does(world):
    """One action, the checks of one confirmation at each table: a newer version than the one
    seen, a disputed version, the chief's own entry, a version already counting and a table
    with nothing entered are refused by table; the others count (a changed table's new version
    replaces the one that counted) with an audit entry each, and only they."""
    event, rnd, a, b, chief = world
    enter(table(rnd, 1), a)  # submitted: confirmed
    enter(table(rnd, 2), a)
    seen_2 = f"{table(rnd, 2).pk}:1"
    enter(table(rnd, 2), a, deals=[{"finish": ["N", "S", "E", "W"]}])  # version 2 since
    enter(table(rnd, 3), a)
    captain = factories.grant(factories.user(), event, "captain", team=table(rnd, 3).home)
    disputes.raise_dispute(table(rnd, 3), 1, factories.actor(captain), "deal 1 was NS")
    enter(table(rnd, 4), chief)  # the chief's own entry, not confirmed at entry
    factories.result(table(rnd, 5))  # counting: version 1
    enter(table(rnd, 5), b, deals=[{"finish": ["N", "S", "E", "W"]}])  # changed: version 2
    selection = [table(rnd, 1).pk, seen_2, table(rnd, 3).pk, table(rnd, 4).pk, table(rnd, 5).pk]
    audit_before = AuditLog.objects.filter(action="result.confirm").count()
    done, refused = board.bulk_confirm(rnd, chief, selection)
    assert done == 2
    assert [reason.split(":")[0] for reason in refused] == ["Table 2", "Table 3", "Table 4"]
    counting = dict(
        ResultVersion.objects.filter(match__round=rnd, is_counting=True).values_list(
            "match__table_number", "number"
        )
    )
    assert counting == {1: 1, 5: 2}
    logged = AuditLog.objects.filter(action="result.confirm").order_by("pk")[audit_before:]
    assert [entry.table_number for entry in logged] == [1, 5]
    # a second press confirms nothing twice: each now counts (or is still refused)
    done, refused = board.bulk_confirm(rnd, chief, [table(rnd, 1).pk, table(rnd, 5).pk])
    assert done == 0 and len(refused) == 2


def test_bulk_confirm_refuses_a_version_newer_than_the_one_seen(world):
    event, rnd, a, _b, chief = world
    first = table(rnd, 1)
    enter(first, a)
    seen = f"{first.pk}:1"
    result_entry.submit(first, factories.guandan_record(), factories.actor(a), 1)  # version 2
    done, refused = board.bulk_confirm(rnd, chief, [seen])
    assert done == 0 and len(refused) == 1 and "1" in refused[0]
    assert not ResultVersion.objects.filter(match=first, is_counting=True).exists()
