"""The event's lifecycle: registration → check-in → in play → finished, driven by the rounds."""

from __future__ import annotations

import pytest

from tests import factories
from tournaments.models import AuditLog, Round, Tournament
from tournaments.services import checkin, events, round_close, rounds
from tournaments.services.round_close import RoundCloseError

Status = Tournament.Status


@pytest.fixture
def event(db):
    tournament = factories.tournament(teams=4, num_rounds=1)
    return tournament, factories.organiser_of(tournament), factories.chief_of(tournament)


def status(tournament) -> str:
    return Tournament.objects.get(pk=tournament.pk).status


def play_the_only_round(tournament, organiser, chief):
    rnd = rounds.publish(rounds.generate_draft(tournament, organiser, seed=1), organiser)
    for match in rnd.matches.exclude(away=None):
        factories.result(match)
    return round_close.finalise(Round.objects.get(pk=rnd.pk), chief)


def test_status_follows_check_in_and_the_first_published_round(event):
    tournament, organiser, _chief = event
    assert status(tournament) == Status.REGISTRATION
    checkin.check_in(tournament.teams.all(), organiser)
    assert status(tournament) == Status.CHECK_IN
    rounds.publish(rounds.generate_draft(tournament, organiser, seed=1), organiser)
    assert status(tournament) == Status.IN_PLAY


def test_finish_needs_every_round_finalised_then_freezes_results(event):
    tournament, organiser, chief = event
    rnd = rounds.publish(rounds.generate_draft(tournament, organiser, seed=1), organiser)
    with pytest.raises(RoundCloseError, match="not finalised: 1"):
        events.finish(tournament, organiser)
    for match in rnd.matches.exclude(away=None):
        factories.result(match)
    rnd = round_close.finalise(Round.objects.get(pk=rnd.pk), chief)
    events.finish(tournament, organiser)
    assert status(tournament) == Status.FINISHED
    with pytest.raises(RoundCloseError, match="frozen"):
        round_close.reopen(rnd, chief, "a late correction")
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.FINALISED


def test_only_the_chief_reopens_a_finished_event_with_a_reason(event):
    tournament, organiser, chief = event
    play_the_only_round(tournament, organiser, chief)
    events.finish(tournament, organiser)
    with pytest.raises(RoundCloseError):
        events.reopen(tournament, organiser, "why not")
    with pytest.raises(RoundCloseError) as err:
        events.reopen(tournament, chief, "  ")
    assert err.value.field == "reason"
    events.reopen(tournament, chief, "table 1 misread")
    assert status(tournament) == Status.IN_PLAY
    assert AuditLog.objects.get(action="tournament.reopen").reason == "table 1 misread"


def test_finish_refused_to_the_chief_referee(event):
    tournament, organiser, chief = event
    play_the_only_round(tournament, organiser, chief)
    with pytest.raises(RoundCloseError):
        events.finish(tournament, chief)
    assert status(tournament) == Status.IN_PLAY


def test_api_refuses_to_set_the_status_by_hand(event, api_as):
    tournament, organiser, _chief = event
    response = api_as(organiser).patch(
        f"/api/tournaments/{tournament.slug}/", {"status": "finished"}, format="json"
    )
    assert response.status_code == 400 and response.json()["field"] == "status"
    assert status(tournament) == Status.REGISTRATION


def test_status_page_finishes_and_reopens(event, client):
    tournament, organiser, chief = event
    play_the_only_round(tournament, organiser, chief)
    client.force_login(organiser)
    url = f"/t/{tournament.slug}/manage/status/"
    assert 'id="finish-event"' in client.get(url).content.decode()
    client.post(url, {"action": "finish"})
    assert status(tournament) == Status.FINISHED
    client.force_login(chief)
    client.post(url, {"action": "reopen", "reason": "appeal upheld"})
    assert status(tournament) == Status.IN_PLAY
