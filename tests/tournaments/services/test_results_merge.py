"""Issue 35, no silent overwrite: "mine over the newer version" merges deal by deal.

The pure merge (tournaments/results_merge.py) and the service that stores it
(result_entry.submit with merge_base): the chief's correction of deal 5 survives the
referee's change of deal 3 made on version 1; a deal both changed needs a choice."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.factories import actor, guandan_record
from tournaments import results_merge
from tournaments.errors import Code
from tournaments.models import AuditLog, ResultVersion
from tournaments.services import result_confirm, result_entry
from tournaments.services.results import ChangedMeanwhile, MergeConflict, ResultError

EW_UP1 = {"finish": ["E", "N", "S"]}
NS_UP1 = {"finish": ["N", "E", "W"]}
EW_UP3 = {"finish": ["E", "W", "S"]}
NINE = [EW_UP1, NS_UP1] * 4 + [EW_UP1]  # nobody reaches A: EW 7, NS 6


def changed(deals, number, deal):
    out = list(deals)
    out[number - 1] = deal
    return out


# --- the pure merge -------------------------------------------------------------------------


def test_deals_changed_on_one_side_each_are_both_kept():
    base = {"deals": [1, 2, 3, 4, 5]}
    found = results_merge.merge(base, {"deals": [1, 2, 3, 4, 50]}, {"deals": [1, 2, 30, 4, 5]})
    assert found.clean
    assert found.record == {"deals": [1, 2, 30, 4, 50]}
    assert found.theirs == [5] and found.mine == [3]


def test_a_deal_both_changed_differently_is_a_conflict_and_no_record():
    base = {"deals": [1, 2, 3]}
    found = results_merge.merge(base, {"deals": [1, 2, 30]}, {"deals": [1, 2, 31]})
    assert not found.clean and found.record is None and found.conflicts == [3]


def test_a_choice_settles_a_conflict_either_way():
    base, theirs, mine = {"deals": [1, 2, 3]}, {"deals": [1, 2, 30]}, {"deals": [1, 2, 31]}
    assert results_merge.merge(base, theirs, mine, {"3": "mine"}).record == {"deals": [1, 2, 31]}
    assert results_merge.merge(base, theirs, mine, {3: "theirs"}).record == {"deals": [1, 2, 30]}
    assert results_merge.merge(base, theirs, mine, {"3": "both"}).conflicts == [3]


def test_the_same_change_on_both_sides_is_no_conflict():
    found = results_merge.merge({"deals": [1]}, {"deals": [2]}, {"deals": [2]})
    assert found.clean and found.record == {"deals": [2]}


def test_deals_added_after_the_others_removal_leave_a_hole_that_is_a_conflict():
    found = results_merge.merge({"deals": [1, 2, 3]}, {"deals": [1, 2]}, {"deals": [1, 2, 3, 4]})
    assert found.conflicts == [3] and found.record is None
    chosen = results_merge.merge(
        {"deals": [1, 2, 3]}, {"deals": [1, 2]}, {"deals": [1, 2, 3, 4]}, {"3": "mine"}
    )
    assert chosen.record == {"deals": [1, 2, 3, 4]}


def test_best_of_three_merges_over_all_games_in_order():
    base = {"games": [{"deals": [1, 2]}]}
    theirs = {"games": [{"deals": [1, 2]}, {"deals": [7]}]}
    mine = {"games": [{"deals": [1, 3]}]}
    found = results_merge.merge(base, theirs, mine)
    assert found.record == {"games": [{"deals": [1, 3]}, {"deals": [7]}]}


def test_a_record_without_deals_is_one_item():
    base, theirs, mine = {"final_levels": 1}, {"final_levels": 2}, {"final_levels": 3}
    assert results_merge.merge(base, theirs, mine).fields == ["record"]
    assert results_merge.merge(base, theirs, {"final_levels": 1}).record == {"final_levels": 2}


DEALS = st.lists(st.integers(0, 9), min_size=1, max_size=12)


@given(DEALS, st.data())
def test_property_a_merge_of_non_overlapping_changes_holds_both(base, data):
    n = len(base)
    where = data.draw(st.lists(st.integers(0, n - 1), unique=True, min_size=0, max_size=n))
    split = data.draw(st.integers(0, len(where)))
    theirs, mine = list(base), list(base)
    for i in where[:split]:
        theirs[i] = base[i] + 100
    for i in where[split:]:
        mine[i] = base[i] + 200
    found = results_merge.merge({"deals": base}, {"deals": theirs}, {"deals": mine})
    assert found.clean
    deals = found.record["deals"]
    assert all(deals[i] == theirs[i] for i in where[:split])
    assert all(deals[i] == mine[i] for i in where[split:])
    assert all(deals[i] == base[i] for i in range(n) if i not in where)


@given(DEALS, st.data())
def test_property_overlapping_changes_without_a_choice_are_refused(base, data):
    i = data.draw(st.integers(0, len(base) - 1))
    theirs, mine = list(base), list(base)
    theirs[i], mine[i] = base[i] + 100, base[i] + 200
    found = results_merge.merge({"deals": base}, {"deals": theirs}, {"deals": mine})
    assert found.record is None and found.conflicts == [i + 1]


# --- the service: the database afterwards --------------------------------------------------

pytestmark_db = pytest.mark.django_db


@pytest.fixture
def corrected(event):
    """Version 1 (the referee's nine deals), version 2: the chief corrects deal 5."""
    result_entry.submit(event.match, guandan_record(NINE), actor(event.referee), 0)
    result_entry.correct(
        event.match,
        guandan_record(changed(NINE, 5, EW_UP3)),
        actor(event.chief),
        1,
        "第 5 副东西双上",
    )
    return event


@pytestmark_db
def test_the_phone_on_v1_gets_409_saying_what_a_merge_does(corrected):
    event = corrected
    mine = guandan_record(changed(NINE, 3, NS_UP1))
    with pytest.raises(ChangedMeanwhile) as err:
        result_entry.submit(event.match, mine, actor(event.referee), 1)
    merge = err.value.extra()["merge"]
    assert merge["base_version"] == 1 and merge["onto"] == 2
    assert merge["theirs"] == [5] and merge["mine"] == [3] and merge["conflicts"] == []


@pytestmark_db
def test_mine_over_the_newer_version_keeps_the_chiefs_correction(corrected):
    event = corrected
    mine = guandan_record(changed(NINE, 3, NS_UP1))
    version = result_entry.submit(event.match, mine, actor(event.referee), 2, merge_base=1)
    newest = ResultVersion.objects.filter(match=event.match).order_by("-number").first()
    assert newest.pk == version.pk and newest.number == 3
    assert newest.record["deals"][2] == NS_UP1  # the referee's change
    assert newest.record["deals"][4] == EW_UP3  # the chief's correction stays
    assert newest.record["deals"][:2] == NINE[:2] and newest.record["deals"][5:] == NINE[5:]
    entry = AuditLog.objects.get(action="result.merge")
    assert entry.actor == event.referee and entry.data["theirs"] == [5]
    assert entry.data["mine"] == [3] and entry.data["version"] == 3
    # the chief's correction still counts until the merged version is confirmed
    assert ResultVersion.objects.get(match=event.match, is_counting=True).number == 2
    result_confirm.confirm(event.match, 3, actor(event.home_captain))
    counted = result_confirm.confirm(event.match, 3, actor(event.away_captain))
    assert counted.is_counting and counted.record["deals"][4] == EW_UP3


@pytestmark_db
def test_both_changed_deal_5_refused_without_a_choice_then_with_a_reason(corrected):
    event = corrected
    mine = guandan_record(changed(NINE, 5, NS_UP1))
    with pytest.raises(MergeConflict) as err:
        result_entry.submit(event.match, mine, actor(event.referee), 2, merge_base=1)
    assert err.value.code == Code.MERGE_CONFLICT and err.value.status == 409
    assert err.value.extra()["conflicts"] == [5]
    assert ResultVersion.objects.filter(match=event.match).count() == 2
    with pytest.raises(ResultError) as why:  # mine over the chief's: a reason is needed
        result_entry.submit(
            event.match, mine, actor(event.referee), 2, merge_base=1, overrides={"5": "mine"}
        )
    assert why.value.field == "note"
    kept = result_entry.submit(
        event.match, mine, actor(event.referee), 2, merge_base=1, overrides={"5": "theirs"}
    )
    assert kept.record["deals"][4] == EW_UP3


def test_three_seats_of_a_finish_are_the_deal_their_four_seats_imply():
    from rules_engine.phone import deal_key

    stored = {"deals": [{"finish": ["E", "N", "S", "W"]}]}
    tapped = {"deals": [{"finish": ["E", "N", "S"]}, {"finish": ["N", "E", "W"]}]}
    found = results_merge.merge(None, stored, tapped, same=deal_key)
    assert found.clean and found.mine == [2]
    assert results_merge.merge(None, stored, tapped).conflicts == [1]  # compared as written
