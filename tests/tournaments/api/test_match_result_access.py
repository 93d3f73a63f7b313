"""Issue 31: the match-result GET answered anonymous callers with unconfirmed deals. Anyone
reads a match; the versions that do not count yet only the officials, the table and the
captains of the two teams see."""

from __future__ import annotations

import pytest

from tests.factories import guandan_record
from tournaments.services import result_entry, results

pytestmark = pytest.mark.django_db


@pytest.fixture
def unconfirmed(event):
    actor = results.Actor(event.referee, None, "api", "")
    return result_entry.submit(event.match, guandan_record(), actor, 0)


def url(event) -> str:
    return f"/api/tournaments/{event.event.slug}/matches/{event.match.pk}/result/"


def test_an_anonymous_reader_sees_no_unconfirmed_deals(event, unconfirmed, api):
    answer = api.get(url(event))
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["versions"] == [] and body["latest"] is None and body["counting"] is None


@pytest.mark.parametrize("who", ["chief", "organiser", "referee", "home_captain", "away_captain"])
def test_officials_the_table_and_the_two_captains_see_them(event, unconfirmed, api_as, who):
    body = api_as(getattr(event, who)).get(url(event)).json()
    assert [v["number"] for v in body["versions"]] == [1] and body["latest"]["number"] == 1


def test_a_referee_of_another_table_sees_only_what_counts(event, unconfirmed, api_as):
    body = api_as(event.other_referee).get(url(event)).json()
    assert body["versions"] == []
