"""Fixtures of the arbitration area: a guandan round with two tables, officials, captains and a
committee of three; helpers to enter a confirmed result and read standings."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests import factories


@pytest.fixture
def arb(make_event, make_user, grant):
    """Round 1 in play: table 1 Team 001 (EW) v Team 002 (NS), table 2 Team 003 v Team 004."""
    from tournaments.models import Round, Team

    event = make_event(teams=4, units=4)
    teams = list(Team.objects.filter(event=event).order_by("name"))
    round_ = factories.round_(
        event, 1, [(teams[0], teams[1]), (teams[2], teams[3])], status=Round.Status.IN_PLAY
    )
    tables = list(round_.matches.order_by("table_number"))
    return SimpleNamespace(
        event=event,
        round=round_,
        match=tables[0],
        match2=tables[1],
        teams=teams,
        chief=grant(make_user(), event, "chief_referee"),
        referee=grant(make_user(), event, "table_referee", tables=[1]),
        referee2=grant(make_user(), event, "table_referee", tables=[2]),
        captain=grant(make_user(), event, "captain", team=teams[0]),
        captain_away=grant(make_user(), event, "captain", team=teams[1]),
        captain3=grant(make_user(), event, "captain", team=teams[2]),
        committee=[grant(make_user(), event, "committee") for _ in range(3)],
        organiser=grant(make_user(), event, "organiser"),
    )
