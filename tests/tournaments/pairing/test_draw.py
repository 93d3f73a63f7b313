"""Round 1 by draw (抽签) with a recorded seed (SPEC section 2)."""

import pytest

from tests.tournaments.pairing_helpers import tables, team
from tournaments.pairing import FLAG_SAME_UNIT, PairingError, draw_first_round


def teams_of_units(units):
    return [team(index + 1, unit=unit) for index, unit in enumerate(units)]


def test_same_seed_reproduces_the_same_draw():
    teams = [team(i) for i in range(1, 21)]
    first = draw_first_round(teams, seed=20260101)
    again = draw_first_round(list(reversed(teams)), seed=20260101)
    assert first == again
    assert first.seed == 20260101


def test_different_seeds_give_different_draws():
    teams = [team(i) for i in range(1, 21)]
    draws = {tuple(tables(draw_first_round(teams, seed))) for seed in range(5)}
    assert len(draws) > 1


def test_draw_pairs_every_team_exactly_once():
    result = draw_first_round([team(i) for i in range(1, 12)], seed=7)
    seen = [t for pairing in result.pairings for t in (pairing.home, pairing.away)]
    assert sorted(seen + [result.bye]) == list(range(1, 12))
    assert [p.table for p in result.pairings] == [1, 2, 3, 4, 5]


def test_draw_gives_the_bye_to_the_last_team_drawn_without_a_bye():
    teams = [team(i) for i in range(1, 6)]
    result = draw_first_round(teams, seed=3)
    assert result.bye is not None
    teams = [team(i, had_bye=(i == result.bye)) for i in range(1, 6)]
    assert draw_first_round(teams, seed=3).bye != result.bye


def test_draw_keeps_same_unit_teams_apart_when_possible():
    units = ["Suzhou"] * 5 + ["Wuxi"] * 5 + ["Nanjing"] * 6
    for seed in range(10):
        result = draw_first_round(teams_of_units(units), seed=seed)
        assert not any(FLAG_SAME_UNIT in p.flags for p in result.pairings)


def test_draw_flags_same_unit_when_a_unit_has_more_than_half_the_teams():
    units = ["Suzhou"] * 6 + ["Wuxi"] * 2
    result = draw_first_round(teams_of_units(units), seed=1)
    assert sum(FLAG_SAME_UNIT in p.flags for p in result.pairings) == 2


def test_draw_leaves_withdrawn_teams_out():
    teams = [team(1), team(2), team(3, active=False)]
    assert tables(draw_first_round(teams, seed=5)) == [{1, 2}]


@pytest.mark.parametrize("seed", ["42", 4.2, None, True])
def test_draw_seed_must_be_a_whole_number(seed):
    with pytest.raises(PairingError, match="seed must be a whole number"):
        draw_first_round([team(1), team(2)], seed=seed)
