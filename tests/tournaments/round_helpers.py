"""Builders for rounds, matches and counting results in tests of the rounds area."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from rules_engine.api import score
from tournaments.models import Match, ResultVersion, Round, RoundSlot

WIN_BY_3 = [{"finish": ["E", "W", "S", "N"]}]  # EW go up 3 levels (double up)


def make_round(tournament, number, pairs=(), byes=(), status=Round.Status.FINALISED):
    """A round with matches: `pairs` of (home, away) teams at tables 1, 2 ...; `byes` teams."""
    rnd = Round.objects.create(tournament=tournament, number=number, status=status)
    for table, (home, away) in enumerate(pairs, start=1):
        match = Match.objects.create(round=rnd, table_number=table, home=home, away=away)
        RoundSlot.objects.bulk_create(
            [
                RoundSlot(round=rnd, match=match, team=home, side="EW"),
                RoundSlot(round=rnd, match=match, team=away, side="NS"),
            ]
        )
    for team in byes:
        match = Match.objects.create(round=rnd, home=team, away=None)
        RoundSlot.objects.create(round=rnd, match=match, team=team, side="EW")
    return rnd


def add_result(match, deals=WIN_BY_3, forfeit=None, counting=True, **record):
    """Score a record with the rules engine and store it as the match's next version."""
    tournament = match.round.tournament
    record = {
        "game": tournament.game,
        "preset": tournament.preset,
        "deals": deals,
        "forfeit": forfeit,
        **record,
    }
    number = match.versions.count() + 1
    if counting:
        match.versions.filter(is_counting=True).update(is_counting=False)
    return ResultVersion.objects.create(
        match=match, number=number, record=record, outcome=score(record), is_counting=counting
    )


def play_round(tournament, number, pairs, byes=(), status=Round.Status.FINALISED):
    """A round whose every played match has a counting home win by three levels."""
    rnd = make_round(tournament, number, pairs, byes, status)
    for match in rnd.matches.exclude(away=None):
        add_result(match)
    return rnd


@pytest.fixture
def fresh_cache():
    """Memoised standings of an earlier test must not answer for this one."""
    cache.clear()
    yield
    cache.clear()
