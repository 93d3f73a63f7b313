"""Issue 35, no silent overwrite for a forfeit (弃权) or a correction resubmitted after a 409.

A forfeit replaces the whole record: resubmitted onto a newer version (``merge_base``: the
version the phone saw) it is a conflict on the whole record; the referee's forfeit never
replaces the chief's correction (refused, with what to do), another referee's version only
with the choice and a reason; the chief may put a forfeit over it. The chief's own correction
resubmitted after a 409 merges deal by deal like a submission."""

from __future__ import annotations

import pytest

from tests.factories import actor, guandan_record
from tests.tournaments.services.test_results_merge import EW_UP1, EW_UP3, NINE, NS_UP1, changed
from tournaments.models import AuditLog, ResultVersion
from tournaments.services import result_entry
from tournaments.services.results import (
    ChangedMeanwhile,
    MergeConflict,
    ResultError,
    ResultForbidden,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def corrected(event):
    """Version 1 (the referee's nine deals), version 2: the chief corrects deal 5."""
    result_entry.submit(event.match, guandan_record(NINE), actor(event.referee), 0)
    result_entry.correct(
        event.match, guandan_record(changed(NINE, 5, EW_UP3)), actor(event.chief), 1, "第 5 副"
    )
    return event


def numbers(event):
    return list(
        ResultVersion.objects.filter(match=event.match)
        .order_by("number")
        .values_list("number", flat=True)
    )


def test_the_forfeits_409_names_the_whole_record_and_the_chiefs_correction(corrected):
    with pytest.raises(ChangedMeanwhile) as err:
        result_entry.mark_absent(corrected.match, "NS", actor(corrected.referee), 1)
    merge = err.value.extra()["merge"]
    assert merge["fields"] == ["record"] and merge["official"] == [5]


def test_a_forfeit_resubmitted_onto_the_chiefs_correction_is_not_stored(corrected):
    event, referee = corrected, actor(corrected.referee)
    with pytest.raises(MergeConflict) as conflict:
        result_entry.mark_absent(event.match, "NS", referee, 2, merge_base=1)
    assert conflict.value.extra()["merge"]["fields"] == ["record"]
    with pytest.raises(ResultForbidden) as why:
        result_entry.mark_absent(
            event.match, "NS", referee, 2, "南北未到", merge_base=1, overrides={"record": "mine"}
        )
    assert why.value.field == "overrides" and "chief referee" in str(why.value.message)
    assert numbers(event) == [1, 2]
    newest = ResultVersion.objects.get(match=event.match, number=2)
    assert newest.record["deals"][4] == EW_UP3 and newest.is_counting


def test_the_chief_may_put_a_forfeit_over_his_correction_with_a_reason(corrected):
    event, chief = corrected, actor(corrected.chief)
    choice = {"merge_base": 1, "overrides": {"record": "mine"}}
    with pytest.raises(ResultError) as why:
        result_entry.mark_absent(event.match, "NS", chief, 2, **choice)
    assert why.value.field == "note"
    version = result_entry.mark_absent(
        event.match, "NS", chief, 2, "南北迟到超过 15 分钟", **choice
    )
    assert version.number == 3 and version.record["forfeit"] == "NS" and version.is_counting
    assert AuditLog.objects.get(action="result.merge").data["chosen"] == {"record": "mine"}


def test_a_forfeit_over_another_referees_version_needs_the_choice_and_a_reason(event):
    result_entry.submit(event.match, guandan_record(NINE), actor(event.referee), 0)
    result_entry.submit(
        event.match, guandan_record(changed(NINE, 5, EW_UP3)), actor(event.referee2), 1
    )
    referee = actor(event.referee)
    with pytest.raises(MergeConflict):
        result_entry.mark_absent(event.match, "EW", referee, 2, merge_base=1)
    version = result_entry.mark_absent(
        event.match, "EW", referee, 2, "东西未到", merge_base=1, overrides={"record": "mine"}
    )
    assert version.number == 3 and version.record["forfeit"] == "EW"


def test_the_chiefs_correction_resubmitted_after_a_409_merges_deal_by_deal(corrected):
    event, chief = corrected, actor(corrected.chief)
    # the referee changes deal 3 on version 2 meanwhile
    result_entry.submit(
        event.match,
        guandan_record(changed(changed(NINE, 5, EW_UP3), 3, NS_UP1)),
        actor(event.referee),
        2,
    )
    mine = guandan_record(changed(changed(NINE, 5, EW_UP3), 8, EW_UP1))  # chief: deal 8
    with pytest.raises(ChangedMeanwhile) as err:
        result_entry.correct(event.match, mine, chief, 2, "第 8 副")
    merge = err.value.extra()["merge"]
    assert merge["theirs"] == [3] and merge["mine"] == [8]
    version = result_entry.correct(event.match, mine, chief, 3, "第 8 副", merge_base=2)
    assert version.number == 4 and version.is_counting
    deals = version.record["deals"]
    assert deals[2] == NS_UP1 and deals[4] == EW_UP3 and deals[7] == EW_UP1
