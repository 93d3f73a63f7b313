"""The event's lifecycle: registration → check-in → in play → finished, driven by the rounds."""

from __future__ import annotations

import pytest

from tests import factories
from tournaments.models import AuditLog, Event, Round
from tournaments.services import checkin, events, round_close, rounds
from tournaments.services.round_close import RoundCloseError

Status = Event.Status


@pytest.fixture
def world(db):
    event = factories.event(teams=4, num_rounds=1)
    return event, factories.organiser_of(event), factories.chief_of(event)


def status(event) -> str:
    return Event.objects.get(pk=event.pk).status


def play_the_only_round(event, organiser, chief):
    rnd = rounds.publish(rounds.generate_draft(event, organiser, seed=1), organiser)
    for match in rnd.matches.exclude(away=None):
        factories.result(match)
    return round_close.finalise(Round.objects.get(pk=rnd.pk), chief)


def test_status_follows_check_in_and_the_first_published_round(world):
    event, organiser, _chief = world
    assert status(event) == Status.REGISTRATION
    checkin.check_in(event.teams.all(), organiser)
    assert status(event) == Status.CHECK_IN
    rounds.publish(rounds.generate_draft(event, organiser, seed=1), organiser)
    assert status(event) == Status.IN_PLAY


def test_finish_needs_every_round_finalised_then_freezes_results(world):
    event, organiser, chief = world
    rnd = rounds.publish(rounds.generate_draft(event, organiser, seed=1), organiser)
    with pytest.raises(RoundCloseError, match="not finalised: 1"):
        events.finish(event, organiser)
    for match in rnd.matches.exclude(away=None):
        factories.result(match)
    rnd = round_close.finalise(Round.objects.get(pk=rnd.pk), chief)
    events.finish(event, organiser)
    assert status(event) == Status.FINISHED
    with pytest.raises(RoundCloseError, match="frozen"):
        round_close.reopen(rnd, chief, "a late correction")
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.FINALISED


def test_only_the_chief_reopens_a_finished_event_with_a_reason(world):
    event, organiser, chief = world
    play_the_only_round(event, organiser, chief)
    events.finish(event, organiser)
    with pytest.raises(RoundCloseError):
        events.reopen(event, organiser, "why not")
    with pytest.raises(RoundCloseError) as err:
        events.reopen(event, chief, "  ")
    assert err.value.field == "reason"
    events.reopen(event, chief, "table 1 misread")
    assert status(event) == Status.IN_PLAY
    assert AuditLog.objects.get(action="tournament.reopen").reason == "table 1 misread"


def test_finish_refused_to_the_chief_referee(world):
    event, organiser, chief = world
    play_the_only_round(event, organiser, chief)
    with pytest.raises(RoundCloseError):
        events.finish(event, chief)
    assert status(event) == Status.IN_PLAY


def test_api_refuses_to_set_the_status_by_hand(world, api_as):
    event, organiser, _chief = world
    response = api_as(organiser).patch(
        f"/api/tournaments/{event.slug}/", {"status": "finished"}, format="json"
    )
    assert response.status_code == 400 and response.json()["field"] == "status"
    assert status(event) == Status.REGISTRATION


def test_status_page_finishes_and_reopens(world, client):
    event, organiser, chief = world
    play_the_only_round(event, organiser, chief)
    client.force_login(organiser)
    url = f"/t/{event.slug}/manage/status/"
    assert 'id="finish-event"' in client.get(url).content.decode()
    client.post(url, {"action": "finish"})
    assert status(event) == Status.FINISHED
    client.force_login(chief)
    client.post(url, {"action": "reopen", "reason": "appeal upheld"})
    assert status(event) == Status.IN_PLAY
