"""The referee's hint for a half-seated table quotes the event's late_limit_minutes (issue 37:
it said "10 minutes" whatever the event's setting)."""

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from tournaments.models import Event, Seating
from tournaments.services import board, homes
from tournaments.services.results import current_round


@pytest.fixture
def demo(db, media):
    from tournaments.services import demo as service

    service.load_demo()
    return Event.objects.get(slug=service.DEMO_SLUG)


def hints(event, referee) -> list[str]:
    _rnd, tables = homes.referee_tables(event, referee)
    return [str(t.next_action) for t in tables if t.state == board.NOT_STARTED and t.urgent]


@pytest.mark.parametrize("minutes", [10, 7])
def test_the_half_seated_hint_quotes_the_events_late_limit(demo, minutes):
    event = demo
    event.settings = {**(event.settings or {}), "late_limit_minutes": minutes}
    event.save(update_fields=["settings"])
    referee = get_user_model().objects.get(username="referee1")
    rnd = current_round(event)
    match = next(
        m
        for m in rnd.matches.exclude(away=None)
        .filter(versions__isnull=True)
        .order_by("table_number")
        if 1 <= m.table_number <= 6
    )
    Seating.objects.create(round=rnd, team=match.home)  # the home team marked seated
    with translation.override("en"):
        found = [h for h in hints(event, referee) if match.away.name in h]
    assert found and f"start + {minutes} minutes" in found[0]
