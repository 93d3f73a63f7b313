"""The operations board's pages: calls raised from a table page and answered on the board, the
range-of-tables filter, late forfeits confirmed from the board."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests import factories
from tournaments.models import AuditLog, RefereeCall, ResultVersion, Round
from tournaments.services import checkin, rounds, table_keys

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def ops(db):
    return factories.board_round(status=Round.Status.IN_PLAY)


def board_url(ops) -> str:
    return f"/t/{ops.event.slug}/manage/rounds/1/board/"


def test_a_call_from_the_table_page_is_answered_on_the_board(ops, client):
    slug = ops.event.slug
    client.force_login(ops.a)
    page = client.get(f"/t/{slug}/table/2/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="call-form"' in page and f'action="/t/{slug}/table/2/call/"' in page
    response = client.post(f"/t/{slug}/table/2/call/", {"note": "需要查规则"})
    assert response.status_code == 302 and response.url == f"/t/{slug}/table/2/"
    call = RefereeCall.objects.get()
    assert (call.round, call.table_number, call.note, call.raised_by_name, call.raised_via) == (
        ops.round,
        2,
        "需要查规则",
        "ref-a",
        RefereeCall.Via.REFEREE,
    )
    client.post(f"/t/{slug}/table/2/call/", {"note": "again"})  # a second press: still one
    assert RefereeCall.objects.count() == 1
    page = client.get(f"/t/{slug}/table/2/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="call-waiting"' in page

    client.force_login(ops.chief)
    board = client.get(board_url(ops), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="call-queue"' in board and "需要查规则" in board and 'data-answer="2"' in board
    response = client.post(board_url(ops), {"action": "answer", "call": call.pk})
    assert response.status_code == 302
    call.refresh_from_db()
    assert call.answered_at is not None and call.answered_by_name == ops.chief.username
    assert 'id="call-queue"' not in client.get(board_url(ops)).content.decode()
    assert list(
        AuditLog.objects.filter(action__startswith="call.")
        .order_by("pk")
        .values_list("action", "actor_name")
    ) == [("call.raise", "ref-a"), ("call.answer", ops.chief.username)]


def test_a_referee_of_another_table_or_anonymous_cannot_call_for_a_table(ops, client):
    slug = ops.event.slug
    response = client.post(f"/t/{slug}/table/2/call/", {"note": "hi"})
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    client.force_login(ops.b)  # referee of tables 4-5
    assert client.post(f"/t/{slug}/table/2/call/", {"note": "hi"}).status_code == 403
    client.force_login(ops.organiser)  # no referee
    assert client.post(f"/t/{slug}/table/2/call/").status_code == 403
    assert not RefereeCall.objects.exists()
    assert not AuditLog.objects.filter(action="call.raise").exists()


def test_only_the_chief_answers_a_call_on_the_board(ops, client):
    client.force_login(ops.a)
    client.post(f"/t/{ops.event.slug}/table/1/call/")
    call = RefereeCall.objects.get()
    client.force_login(ops.organiser)  # sees the board, answers nothing
    board = client.get(board_url(ops)).content.decode()
    assert 'id="call-queue"' in board and "data-answer" not in board
    assert client.post(board_url(ops), {"action": "answer", "call": call.pk}).status_code == 403
    assert RefereeCall.objects.get().is_open


def test_the_tables_device_calls_through_its_key(ops, client):
    key = table_keys.issue(ops.event, 3, ops.chief)
    page = client.get(f"/table/{key.key}/").content.decode()
    assert f'action="/table/{key.key}/call/"' in page
    response = client.post(f"/table/{key.key}/call/", {"note": "scoring dispute"})
    assert response.status_code == 302 and response.url == f"/table/{key.key}/"
    call = RefereeCall.objects.get()
    assert (call.table_number, call.raised_via, call.raised_by_name) == (3, "table_key", "ref-a")
    call.answered_at = START
    call.save()
    table_keys.revoke(key, ops.chief)
    assert client.post(f"/table/{key.key}/call/").status_code == 404
    assert RefereeCall.objects.count() == 1


def test_board_page_filters_by_a_range_of_tables(ops, client):
    client.force_login(ops.chief)
    page = client.get(board_url(ops), {"from": "2", "to": "3"}).content.decode()
    assert page.count('class="state-') == 2 and 'inputmode="numeric" value="2"' in page
    page = client.get(board_url(ops), {"referee": "ref-a", "from": "3"}).content.decode()
    assert page.count('class="state-') == 1
    assert client.get(board_url(ops)).content.decode().count('class="state-') == 6
    refused = client.get(board_url(ops), {"from": "A1"}, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400 and "A table number is a whole number" in (
        refused.content.decode()
    )


def test_board_offers_the_events_halls_with_ranges_as_a_quick_choice_of_tables(ops, client):
    ops.event.halls = "A厅 1-3\n休息区\nB厅 4-5"
    ops.event.save(update_fields=["halls"])
    client.force_login(ops.chief)
    page = client.get(board_url(ops), {"referee": "ref-b"}).content.decode()
    choices = page.split('id="board-halls"')[1].split("</p>")[0]
    assert 'href="?from=1&amp;to=3&amp;referee=ref-b&amp;state="' in choices
    assert 'href="?from=4&amp;to=5&amp;' in choices and "休息区" not in choices
    chosen = client.get(board_url(ops), {"from": "4", "to": "5"}).content.decode()
    assert chosen.count('class="state-') == 2
    assert 'to=5&amp;referee=&amp;state=" aria-current="true"' in chosen


@pytest.fixture
def started(db, time_machine):
    """The round's clock started at START; every team seated but both teams of table 1."""
    ops = factories.board_round(status=Round.Status.PUBLISHED)
    time_machine.move_to(START, tick=False)
    ops.round = rounds.start_clock(ops.round, ops.organiser)
    for match in ops.round.matches.exclude(away=None).exclude(table_number=1):
        checkin.mark_seated(match, match.home, ops.chief)
        checkin.mark_seated(match, match.away, ops.chief)
    return ops


def test_late_forfeits_confirmed_from_the_board_on_a_frozen_clock(started, client, time_machine):
    first = started.round.matches.get(table_number=1)
    client.force_login(started.chief)
    time_machine.move_to(START + timedelta(minutes=9), tick=False)
    assert 'id="late-forfeits"' not in client.get(board_url(started)).content.decode()
    time_machine.move_to(START + timedelta(minutes=12), tick=False)
    page = client.get(board_url(started), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="late-forfeits"' in page and "12 min (limit 10)" in page
    late = page.split('id="late-forfeits"')[1].split("</table>")[0]
    assert f'name="team" value="{first.home_id}"' in late
    assert f'name="team" value="{first.away_id}"' in late and " checked" not in late
    assert first.home.name in late and first.away.name in late
    client.post(board_url(started), {"action": "forfeits"})  # nothing selected: nothing ruled
    assert not ResultVersion.objects.exists()
    client.force_login(started.organiser)
    refused = client.post(board_url(started), {"action": "forfeits", "team": first.away_id})
    assert refused.status_code == 403
    client.force_login(started.chief)
    response = client.post(
        board_url(started), {"action": "forfeits", "team": [first.home_id, first.away_id]}
    )
    assert response.status_code == 302
    version = ResultVersion.objects.get()
    assert version.match == first and version.is_counting and version.record["forfeit"] == "both"
    assert AuditLog.objects.filter(action="team.late_forfeit").count() == 2
    entry = AuditLog.objects.get(action="result.submission", target_id=str(first.pk))
    assert entry.actor_name == started.chief.username and entry.data["via"] == "web"
    assert 'id="late-forfeits"' not in client.get(board_url(started)).content.decode()
