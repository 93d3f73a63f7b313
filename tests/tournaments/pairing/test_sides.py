"""Home (East-West) and away (North-South) balance (SPEC section 2)."""

from tests.tournaments.pairing_helpers import team
from tournaments.pairing import FLAG_HOME_TWICE, pair_round
from tournaments.pairing.sides import assign_sides


def test_team_home_fewer_times_sits_home():
    upper = team(1, 2, home_count=2, away_count=1, recent_sides=("H", "A", "H"))
    lower = team(2, 2, home_count=1, away_count=2, recent_sides=("A", "H", "A"))
    assert assign_sides(upper, lower)[:2] == (2, 1)


def test_equal_home_counts_alternate_from_the_last_side():
    upper = team(1, 2, home_count=1, away_count=1, recent_sides=("A", "H"))
    lower = team(2, 2, home_count=1, away_count=1, recent_sides=("H", "A"))
    assert assign_sides(upper, lower)[:2] == (2, 1)
    assert assign_sides(lower, upper)[:2] == (2, 1)


def test_alternation_looks_back_to_the_latest_differing_round():
    upper = team(1, 2, home_count=1, away_count=1, recent_sides=("H", "A"))
    lower = team(2, 2, home_count=1, away_count=1, recent_sides=("A", "A"))
    assert assign_sides(upper, lower)[:2] == (2, 1)


def test_without_history_the_higher_placed_team_sits_home():
    assert assign_sides(team(1), team(2))[:2] == (1, 2)


def test_no_team_is_home_a_third_time_in_a_row_when_avoidable():
    # Team 1 has been home less often but sat home in its last two rounds.
    upper = team(1, 2, home_count=2, away_count=2, recent_sides=("A", "A", "H", "H"))
    lower = team(2, 2, home_count=3, away_count=1, recent_sides=("H", "H", "A", "H"))
    home, away, flags = assign_sides(upper, lower)
    assert (home, away) == (2, 1)
    assert FLAG_HOME_TWICE not in flags


def test_unavoidable_third_home_in_a_row_is_flagged_home_twice():
    upper = team(1, 2, home_count=2, recent_sides=("H", "H"))
    lower = team(2, 2, home_count=3, away_count=1, recent_sides=("A", "H", "H"))
    home, away, flags = assign_sides(upper, lower)
    assert (home, away) == (1, 2)
    assert flags == {FLAG_HOME_TWICE}


def test_pair_round_reports_the_home_twice_flag_in_its_explanation():
    teams = [
        team(1, 2, rank=0, recent_sides=("H", "H")),
        team(2, 2, rank=1, recent_sides=("H", "H")),
    ]
    result = pair_round(teams)
    assert result.pairings[0].flags == {FLAG_HOME_TWICE}
    assert result.explanation[-1].key == "pairing.note.home_twice"
