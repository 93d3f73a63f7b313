"""The match format service (SPEC 2): the event's format, the round clock it sets, and the
format put into every stored record."""

from __future__ import annotations

import pytest

from tests.factories import guandan_record
from tournaments.services import match_formats, rounds
from tournaments.services.match_formats import FormatError

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(make_user):
    return make_user("org", is_superuser=True)


def test_a_format_that_ends_by_time_sets_the_round_clock(make_event, organiser):
    event = make_event(
        teams=4, round_minutes=90, settings={"match_format": {"end": "time", "minutes": 50}}
    )
    assert match_formats.clock_minutes(event) == 50
    rnd = rounds.publish(rounds.generate_draft(event, organiser), organiser)
    rnd = rounds.start_clock(rnd, organiser)
    assert (rnd.ends_at - rnd.started_at).total_seconds() == 50 * 60


@pytest.mark.parametrize(
    ("fmt", "minutes"),
    [(None, 90), ({"end": "deals", "deals": 8}, 90), ({"end": "time_or_deals", "deals": 8}, 60)],
)
def test_other_formats_keep_the_events_round_length(make_event, fmt, minutes):
    settings = {"match_format": fmt} if fmt else {}
    event = make_event(round_minutes=90, settings=settings)
    assert match_formats.clock_minutes(event) == minutes


def test_idiom_chain_matches_have_no_match_format(make_event):
    event = make_event(game="chengyu", preset="chengyu")
    assert match_formats.event_format(event) is None


def test_the_record_gets_the_matchs_format_and_may_not_name_another(event):
    event.event.settings = {"match_format": {"end": "deals", "deals": 4}}
    event.event.save()
    stored = match_formats.with_format(event.match, guandan_record([]))
    assert stored["format"]["end"] == "deals" and stored["format"]["deals"] == 4
    same = match_formats.with_format(event.match, stored)
    assert same == stored
    with pytest.raises(FormatError) as err:
        match_formats.with_format(event.match, guandan_record([], format={"end": "pass_a"}))
    assert err.value.field == "record.format"
    with pytest.raises(FormatError) as err:
        match_formats.with_format(event.match, guandan_record([], format={"end": "never"}))
    assert err.value.field == "record.format.end"
