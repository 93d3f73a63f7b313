"""Round lifecycle at its end: complete, finalise, reopen; standings follow confirmations."""

from __future__ import annotations

import pytest

from tests.factories import actor, guandan_record
from tournaments.freshness import revision
from tournaments.models import AuditLog, Round
from tournaments.services import result_confirm, result_entry, round_close
from tournaments.services.round_close import RoundCloseError, RoundCloseForbidden
from tournaments.standings.service import standings_for

pytestmark = pytest.mark.django_db


def _count_both(event):
    for match, referee in ((event.match, event.referee), (event.match2, event.other_referee)):
        result_entry.submit(match, guandan_record(), actor(referee), 0)
        result_confirm.confirm(match, 1, actor(event.chief))


def test_round_is_complete_when_every_played_match_counts(
    event, django_capture_on_commit_callbacks
):
    result_entry.submit(event.match, guandan_record(), actor(event.chief), 0, confirm=True)
    event.round.refresh_from_db()
    assert event.round.status == Round.Status.IN_PLAY
    result_entry.submit(event.match2, guandan_record(), actor(event.chief), 0, confirm=True)
    event.round.refresh_from_db()
    assert event.round.status == Round.Status.COMPLETE


def test_finalise_is_refused_while_a_table_lacks_a_result_naming_it(event):
    result_entry.submit(event.match, guandan_record(), actor(event.chief), 0, confirm=True)
    with pytest.raises(RoundCloseError) as err:
        round_close.finalise(event.round, event.organiser)
    assert err.value.tables == [2] and "2" in err.value.message


def test_finalise_by_organiser_or_chief_only_and_logged(event):
    _count_both(event)
    with pytest.raises(RoundCloseForbidden):
        round_close.finalise(event.round, event.referee)
    finalised = round_close.finalise(event.round, event.organiser, source="10.1.1.1")
    assert finalised.status == Round.Status.FINALISED and finalised.finalised_at
    assert AuditLog.objects.get(action="round.finalise").source == "10.1.1.1"


def test_reopen_only_by_the_chief_with_a_reason(event):
    _count_both(event)
    round_close.finalise(event.round, event.chief)
    with pytest.raises(RoundCloseForbidden):
        round_close.reopen(event.round, event.organiser, "late appeal")
    with pytest.raises(RoundCloseError, match="reason"):
        round_close.reopen(event.round, event.chief, " ")
    reopened = round_close.reopen(event.round, event.chief, "late appeal")
    assert reopened.status == Round.Status.COMPLETE and reopened.finalised_at is None
    assert AuditLog.objects.get(action="round.reopen").reason == "late appeal"


def test_confirmation_invalidates_standings_and_they_show_the_points(
    event, django_capture_on_commit_callbacks
):
    before = revision(event.event)
    result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    with django_capture_on_commit_callbacks(execute=True):
        result_confirm.confirm(event.match, 1, actor(event.home_captain))
    assert revision(event.event) == before
    with django_capture_on_commit_callbacks(execute=True):
        result_confirm.confirm(event.match, 1, actor(event.away_captain))
    assert revision(event.event) > before
    points = {row.team: row.points for row in standings_for(event.event)}
    assert points[event.teams[0].pk] == 13 and points[event.teams[1].pk] == 7
