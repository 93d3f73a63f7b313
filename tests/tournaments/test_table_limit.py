"""One limit of table numbers (tournaments.validation.MAX_TABLE): the operations board's zone
filter, table links, table assignments and halls — and the API's table links — take table
10,000 and refuse table 10,001, each refusal naming the same limit."""

from __future__ import annotations

import pytest

from tests import factories
from tournaments import halls
from tournaments.errors import ServiceError
from tournaments.services import assignments, board, table_keys
from tournaments.validation import MAX_TABLE

pytestmark = pytest.mark.django_db

LIMIT = 10_000  # written out: the test fails if the constant drifts


def the_four(event, organiser):
    """Each place that takes a table number, as a call with that number."""
    return {
        "board": lambda n: board.table_range(str(n), ""),
        "table keys": lambda n: table_keys.issue(event, n, organiser),
        "assignments": lambda n: assignments.parse_tables(f"1-{n}"),
        "halls": lambda n: halls.check(f"A厅 1-{n}"),
    }


def test_table_10001_is_refused_by_board_keys_assignments_and_halls_naming_one_limit():
    assert MAX_TABLE == LIMIT
    event = factories.event()
    organiser = factories.organiser_of(event)
    messages = {}
    for place, take in the_four(event, organiser).items():
        take(LIMIT)  # the highest table is taken
        with pytest.raises(ServiceError) as refused:
            take(LIMIT + 1)
        messages[place] = refused.value.message
    for place, message in messages.items():  # "10000" is no part of "10001"
        assert str(LIMIT) in message, (place, message)


def test_api_table_link_for_table_10001_answers_400_naming_the_limit(api_as):
    event = factories.event()
    client = api_as(factories.organiser_of(event))
    url = f"/api/tournaments/{event.slug}/table-keys/"
    assert client.post(url, {"table_number": LIMIT}, format="json").status_code == 201
    refused = client.post(url, {"table_number": LIMIT + 1}, format="json")
    assert refused.status_code == 400
    body = refused.json()
    assert body["field"] == "table_number" and str(LIMIT) in body["error"], body
