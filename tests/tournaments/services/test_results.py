"""Results service: versions, confirmation rules, corrections, voids, rulings, restores."""

from __future__ import annotations

import pytest

from tests.factories import actor, guandan_record
from tournaments.models import AuditLog, ResultConfirmation, ResultVersion, Round, TableKey
from tournaments.services import result_confirm, result_effects, result_entry, results
from tournaments.services.results import ChangedMeanwhile, ResultError, ResultForbidden

pytestmark = pytest.mark.django_db


def test_submission_is_stored_with_the_engines_answer_and_does_not_count_yet(event):
    version = result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    assert version.number == 1 and version.kind == "submission"
    assert version.outcome["match_points"] == {"EW": 13, "NS": 7}
    assert version.record["preset"] == "guandan-suzhou-2016"
    assert version.created_by == event.referee and version.source == "10.0.0.1"
    assert not version.is_counting
    assert AuditLog.objects.filter(action="result.submission", target_id=str(event.match.pk))


def test_event_settings_reach_the_engine(event):
    event.event.settings = {"level_difference_table": [[10, 10], [20, 0]]}
    event.event.save()
    version = result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    assert version.outcome["match_points"] == {"EW": 20, "NS": 0}


def test_impossible_record_is_refused_with_the_engines_reason_and_logged(event):
    bad = guandan_record([{"finish": ["E", "E"]}])
    with pytest.raises(ResultError) as err:
        result_entry.submit(event.match, bad, actor(event.referee), 0)
    assert err.value.field.startswith("record.deals[0]")
    assert not ResultVersion.objects.exists()
    entry = AuditLog.objects.get(action="result.refused")
    assert entry.data["record"] == bad and entry.reason == err.value.message


def test_record_of_another_game_is_refused(event):
    with pytest.raises(ResultError, match="plays guandan"):
        result_entry.submit(event.match, {"game": "tractor", "deals": []}, actor(event.referee), 0)


def test_table_referee_writes_only_assigned_tables(event):
    with pytest.raises(ResultForbidden):
        result_entry.submit(event.match2, guandan_record(), actor(event.referee), 0)
    with pytest.raises(ResultForbidden):
        result_entry.submit(event.match, guandan_record(), actor(event.home_captain), 0)


def test_table_key_writes_only_its_table_and_not_after_revocation(event):
    key = TableKey.objects.create(event=event.event, table_number=1)
    assert result_entry.submit(event.match, guandan_record(), actor(key=key), 0).via == "table-key"
    with pytest.raises(ResultForbidden):
        result_entry.submit(event.match2, guandan_record(), actor(key=key), 0)
    key.revoked_at = key.created_at
    with pytest.raises(ResultForbidden):
        result_entry.submit(event.match, guandan_record(), actor(key=key), 1)


def test_bye_has_no_result(event):
    with pytest.raises(ResultError, match="bye"):
        result_entry.submit(event.bye, guandan_record(), actor(event.chief), 0)


def test_stale_base_version_gets_changed_meanwhile_and_the_record_is_kept(event):
    result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    late = guandan_record(SIX_DEALS_SHORT := [{"finish": ["N", "S"]}])
    with pytest.raises(ChangedMeanwhile) as err:
        result_entry.submit(event.match, late, actor(event.referee2), 0)
    assert err.value.latest.number == 1 and err.value.status == 409
    assert err.value.record["deals"] == SIX_DEALS_SHORT
    assert ResultVersion.objects.count() == 1
    conflict = AuditLog.objects.get(action="result.conflict")
    assert conflict.data["record"]["deals"] == SIX_DEALS_SHORT and conflict.actor == event.referee2


def test_base_version_beyond_the_latest_is_refused(event):
    with pytest.raises(ResultError, match="does not exist"):
        result_entry.submit(event.match, guandan_record(), actor(event.referee), 3)


def test_both_captains_confirm_then_the_result_counts(event):
    result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    first = result_confirm.confirm(event.match, 1, actor(event.home_captain))
    assert not first.is_counting
    with pytest.raises(ResultError, match="already confirmed"):
        result_confirm.confirm(event.match, 1, actor(event.home_captain))
    second = result_confirm.confirm(event.match, 1, actor(event.away_captain))
    assert second.is_counting and second.confirmed_by == event.away_captain
    assert ResultConfirmation.objects.filter(version=second, capacity="captain").count() == 2


def test_second_referee_confirms_but_not_the_one_who_entered(event):
    result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    with pytest.raises(ResultForbidden, match="entered this version"):
        result_confirm.confirm(event.match, 1, actor(event.referee))
    assert result_confirm.confirm(event.match, 1, actor(event.referee2)).is_counting


def test_table_key_cannot_confirm(event):
    key = TableKey.objects.create(event=event.event, table_number=1)
    result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    with pytest.raises(ResultForbidden):
        result_confirm.confirm(event.match, 1, actor(key=key))


def test_captain_of_another_match_cannot_confirm(event):
    result_entry.submit(event.match2, guandan_record(), actor(event.other_referee), 0)
    with pytest.raises(ResultForbidden):
        result_confirm.confirm(event.match2, 1, actor(event.home_captain))


def test_confirming_an_outdated_version_is_changed_meanwhile(event):
    result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    result_entry.submit(
        event.match, guandan_record([{"finish": ["N", "S"]}]), actor(event.referee), 1
    )
    with pytest.raises(ChangedMeanwhile):
        result_confirm.confirm(event.match, 1, actor(event.chief))


def test_chief_confirm_on_submit_counts_at_once_and_newest_confirmed_counts(event):
    first = result_entry.submit(event.match, guandan_record(), actor(event.chief), 0, confirm=True)
    assert first.is_counting
    second = result_entry.submit(
        event.match, guandan_record([{"finish": ["N", "S"]}]), actor(event.referee), 1
    )
    assert results.counting_version(event.match) == first
    result_confirm.confirm(event.match, 2, actor(event.chief))
    assert results.counting_version(event.match) == second
    assert ResultVersion.objects.filter(match=event.match, is_counting=True).count() == 1


def test_only_the_chief_confirms_on_submit(event):
    with pytest.raises(ResultForbidden):
        result_entry.submit(event.match, guandan_record(), actor(event.referee), 0, confirm=True)


def test_chief_correction_counts_at_once_and_needs_a_reason(event):
    result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    with pytest.raises(ResultError, match="reason"):
        result_entry.correct(event.match, guandan_record(), actor(event.chief), 1, "")
    with pytest.raises(ResultForbidden):
        result_entry.correct(event.match, guandan_record(), actor(event.referee), 1, "typo")
    fixed = result_entry.correct(
        event.match,
        guandan_record([{"finish": ["S", "N"]}]),
        actor(event.chief),
        1,
        "deal order misread",
    )
    assert fixed.kind == "correction" and fixed.is_counting
    assert fixed.outcome["winner"] == "NS"
    assert AuditLog.objects.get(action="result.correction").reason == "deal order misread"


def test_void_counts_as_not_played(event):
    result_entry.submit(event.match, guandan_record(), actor(event.chief), 0, confirm=True)
    voided = result_entry.void(event.match, actor(event.chief), 1, "wrong teams at the table")
    assert voided.kind == "void" and voided.is_counting
    assert "match_points" not in voided.outcome and voided.outcome["void"] is True
    assert ResultVersion.objects.filter(match=event.match).count() == 2


def test_forfeit_by_the_chief_is_scored_by_the_engine_and_counts(event):
    version = result_entry.mark_absent(event.match, "NS", actor(event.chief), 0, "10 minutes late")
    assert version.is_counting and version.outcome["forfeit"] == "NS"
    assert version.outcome["match_points"] == {"EW": 17, "NS": 0}


def test_forfeit_by_a_table_referee_awaits_confirmation(event):
    version = result_entry.mark_absent(event.match, "both", actor(event.referee), 0)
    assert not version.is_counting and version.outcome["match_points"] == {"EW": 0, "NS": 0}


def test_ruling_version_counts_at_once_with_its_source(event):
    result_entry.submit(event.match, guandan_record(), actor(event.chief), 0, confirm=True)
    ruling = result_effects.submit_ruling_version(
        event.match,
        guandan_record([{"finish": ["N", "S"]}]),
        event.chief,
        "match loss",
        "arbitration.ruling:7",
    )
    assert ruling.kind == "ruling" and ruling.is_counting and ruling.number == 2
    assert AuditLog.objects.get(action="result.ruling").data["source_ref"] == "arbitration.ruling:7"


def test_ruling_is_allowed_in_a_finalised_round(event):
    Round.objects.filter(pk=event.round.pk).update(status=Round.Status.FINALISED)
    event.match.round.status = Round.Status.FINALISED
    ruling = result_effects.submit_ruling_version(
        event.match, guandan_record(), event.chief, "appeal", "arbitration.appeal:1"
    )
    assert ruling.is_counting


def test_restore_makes_an_earlier_version_count_again_as_a_copy(event):
    first = result_entry.submit(event.match, guandan_record(), actor(event.chief), 0, confirm=True)
    result_effects.submit_ruling_version(
        event.match,
        guandan_record([{"finish": ["N", "S"]}]),
        event.chief,
        "match loss",
        "arbitration.ruling:7",
    )
    restored = result_effects.restore_version(
        event.match, first, event.chief, "appeal upheld", "ruling"
    )
    assert restored.number == 3 and restored.is_counting and restored.kind == "ruling"
    assert restored.record == first.record and restored.outcome == first.outcome
    assert ResultVersion.objects.filter(match=event.match).count() == 3


def test_writes_are_refused_in_a_finalised_round(event):
    event.match.round.status = Round.Status.FINALISED
    with pytest.raises(ResultError, match="finalised"):
        result_entry.submit(event.match, guandan_record(), actor(event.chief), 0)


def test_preview_scores_without_storing(event):
    answer = results.preview(
        event.match, guandan_record(SIX := [{"finish": ["E", "W"]}]), actor(event.referee)
    )
    assert answer["levels"] == {"EW": "5", "NS": "2"} and len(SIX) == 1
    assert not ResultVersion.objects.exists()
