"""Fixtures of the results area: a published round with matches, referees and captains."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests import factories

SIX_DEALS = [
    {"finish": ["E", "W", "S", "N"]},  # EW double up: EW 5
    {"finish": ["S", "E", "N", "W"]},  # NS +2: NS 4
    {"finish": ["E", "S", "W", "N"]},  # EW +2: EW 7
    {"finish": ["N", "S", "E", "W"]},  # NS double up: NS 7
    {"finish": ["W", "N", "E", "S"]},  # EW +2: EW 9
    {"finish": ["E", "N", "S", "W"]},  # EW +1: EW 10
]


def guandan_record(deals=None, **extra) -> dict:
    return {"game": "guandan", "deals": SIX_DEALS if deals is None else deals} | extra


@pytest.fixture
def event(make_tournament, make_user, grant):
    return build_event(make_tournament, make_user, grant)


def build_event(make_tournament, make_user, grant):
    """A guandan event with 5 teams: round 1 published, tables 1-2 and a bye; a chief
    referee, a table referee of table 1, a second referee of table 1, the captains of
    table 1's teams, an organiser."""
    from tournaments.models import Round, Team

    tournament = make_tournament(teams=5)
    teams = list(Team.objects.filter(tournament=tournament).order_by("name"))
    round_ = factories.round_(
        tournament, 1, [(teams[0], teams[1]), (teams[2], teams[3])], byes=[teams[4]],
        status=Round.Status.IN_PLAY,
    )  # fmt: skip
    matches = list(round_.matches.exclude(away=None).order_by("table_number"))
    bye = round_.matches.get(away=None)
    people = SimpleNamespace(
        chief=grant(make_user("chief"), tournament, "chief_referee"),
        referee=grant(make_user("ref1"), tournament, "table_referee", tables=[1]),
        referee2=grant(make_user("ref1b"), tournament, "table_referee", tables=[1]),
        other_referee=grant(make_user("ref2"), tournament, "table_referee", tables=[2]),
        home_captain=grant(make_user("cap_home"), tournament, "captain", team=teams[0]),
        away_captain=grant(make_user("cap_away"), tournament, "captain", team=teams[1]),
        organiser=grant(make_user("org"), tournament, "organiser"),
    )
    return SimpleNamespace(
        tournament=tournament, round=round_, match=matches[0], match2=matches[1], bye=bye,
        teams=teams, **vars(people),
    )  # fmt: skip


def actor(user=None, key=None, source="10.0.0.1"):
    from tournaments.services.results import Actor

    return Actor(user, key, "table-key" if key else "api", source)
