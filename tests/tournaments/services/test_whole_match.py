"""Issue 35, states enforced where they are shown: a result that is not a whole match (the
engine says it is not over: an idiom-chain record of 2 deals of 3, a format's deals not all
played) is stored, but cannot be confirmed or count, alone or by the board's bulk confirm;
the board marks the row and says why; a disputed row has no bulk-confirm tick either."""

from __future__ import annotations

import pytest

from tests import factories
from tournaments.errors import Code
from tournaments.models import ResultVersion, Round
from tournaments.services import board, disputes, result_confirm, result_entry, results
from tournaments.services.results import ResultError

pytestmark = pytest.mark.django_db

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


def idioms(*ew_tricks):
    return {"game": "chengyu", "deals": [{"tricks": {"EW": ew, "NS": 13 - ew}} for ew in ew_tricks]}


@pytest.fixture
def chain():
    """An idiom-chain round in play: tables 1-3, a referee for all, the chief."""
    event = factories.event(teams=6, game="chengyu")
    teams = list(event.teams.order_by("name"))
    rnd = factories.round_(
        event, 1, [(teams[i], teams[i + 1]) for i in (0, 2, 4)], status=Round.Status.IN_PLAY
    )
    referee = factories.grant(factories.user("ref-chain"), event, "table_referee", tables=[1, 2, 3])
    return event, rnd, referee, factories.chief_of(event)


def table(rnd, n):
    return rnd.matches.get(table_number=n)


def enter(match, referee, record):
    return result_entry.submit(match, record, results.Actor(referee), 0)


def test_rule_an_idiom_chain_record_of_2_deals_of_3_cannot_be_confirmed(chain):
    event, rnd, referee, chief = chain
    version = enter(table(rnd, 1), referee, idioms(8, 9))  # stored: the match goes on
    assert version.outcome["over"] is False
    with pytest.raises(ResultError) as refused:
        result_confirm.confirm(table(rnd, 1), 1, results.Actor(chief))
    assert refused.value.code == Code.MATCH_NOT_OVER
    assert "2" in refused.value.message and "3" in refused.value.message
    assert not ResultVersion.objects.filter(match=table(rnd, 1), is_counting=True).exists()
    assert not result_confirm.may_confirm(results.Actor(chief), table(rnd, 1), version)
    # the third deal entered: a whole match, confirmed
    whole = result_entry.submit(table(rnd, 1), idioms(8, 9, 4), results.Actor(referee), 1)
    assert result_confirm.may_confirm(results.Actor(chief), table(rnd, 1), whole)
    assert result_confirm.confirm(table(rnd, 1), 2, results.Actor(chief)).is_counting


def test_rule_the_chief_cannot_count_an_incomplete_match_as_it_is_entered(chain):
    _event, rnd, _referee, chief = chain
    with pytest.raises(ResultError) as refused:
        result_entry.submit(table(rnd, 1), idioms(8, 9), results.Actor(chief), 0, confirm=True)
    assert refused.value.code == Code.MATCH_NOT_OVER
    assert not table(rnd, 1).versions.exists()


def test_rule_select_all_does_not_confirm_an_incomplete_match_and_says_why(chain):
    _event, rnd, referee, chief = chain
    enter(table(rnd, 1), referee, idioms(8, 9))  # 2 deals of 3
    enter(table(rnd, 2), referee, idioms(8, 9, 4))  # whole
    rows = board.read(rnd)
    by_table = {row.table: row for row in rows}
    assert by_table[1].incomplete and not by_table[1].confirmable
    assert by_table[2].incomplete == "" and by_table[2].confirmable
    ticks = [f"{row.match.pk}:{row.latest.number}" for row in rows if row.latest]  # every row
    done, refused = board.bulk_confirm(rnd, chief, ticks)
    assert done == 1
    assert len(refused) == 1 and refused[0].startswith("Table 1:"), refused
    assert "not a whole match" in refused[0]
    counting = ResultVersion.objects.filter(match__round=rnd, is_counting=True)
    assert [v.match.table_number for v in counting] == [2]


def test_rule_a_disputed_row_has_no_bulk_confirm_tick(chain):
    event, rnd, referee, chief = chain
    enter(table(rnd, 3), referee, idioms(8, 9, 4))
    captain = factories.grant(factories.user(), event, "captain", team=table(rnd, 3).home)
    disputes.raise_dispute(table(rnd, 3), 1, factories.actor(captain), "deal 2 was NS")
    row = {row.table: row for row in board.read(rnd)}[3]
    assert row.disputed and not row.confirmable


def test_rule_the_board_marks_an_incomplete_or_disputed_row_without_a_tick(chain, client):
    event, rnd, referee, chief = chain
    enter(table(rnd, 1), referee, idioms(8, 9))
    enter(table(rnd, 2), referee, idioms(8, 9, 4))
    enter(table(rnd, 3), referee, idioms(8, 9, 4))
    captain = factories.grant(factories.user(), event, "captain", team=table(rnd, 3).home)
    disputes.raise_dispute(table(rnd, 3), 1, factories.actor(captain), "第 2 副是南北")
    client.force_login(chief)
    html = client.get(f"/t/{event.slug}/manage/rounds/1/board/", **ZH).content.decode()

    def row(n):
        return html.split(f'data-table="{n}"')[1].split("</tr>")[0]

    assert 'name="match"' not in row(1) and 'data-why="incomplete"' in row(1)
    assert "应打 3 副，已打 2 副" in row(1), row(1)
    assert 'name="match"' in row(2) and "data-why" not in row(2)
    assert 'name="match"' not in row(3) and 'data-why="disputed"' in row(3)


def test_rule_the_match_page_says_why_an_incomplete_match_cannot_be_confirmed(chain, client):
    event, rnd, referee, chief = chain
    enter(table(rnd, 1), referee, idioms(8, 9))
    client.force_login(chief)
    html = client.get(f"/t/{event.slug}/results/match/{table(rnd, 1).pk}/", **ZH).content.decode()
    assert 'id="incomplete"' in html and "应打 3 副，已打 2 副" in html
    assert 'id="confirm-latest"' not in html
