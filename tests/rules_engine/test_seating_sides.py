"""The side the home team plays is the engine's answer, asked in one function."""

from rules_engine import seating
from rules_engine.outcome import Outcome


def test_the_home_team_plays_east_west_and_the_away_team_north_south():
    assert seating.side_of(home=True) == seating.HOME == "EW"
    assert seating.side_of(home=False) == seating.AWAY == "NS"
    assert seating.by_side("红队", "蓝队") == {"EW": "红队", "NS": "蓝队"}
    assert seating.is_home("EW") and not seating.is_home("NS")
    assert seating.other_side("EW") == "NS" and seating.other_side("NS") == "EW"


def test_an_outcome_reads_each_value_by_side():
    outcome = Outcome.from_answer(
        {
            "match_points": {"EW": 3, "NS": 1},
            "level_difference": 4,
            "winner": "EW",
            "deals_won": {"EW": 2, "NS": 1},
            "games_won": {"EW": 2, "NS": 1},
            "level_points": {"EW": 2, "NS": 0},
            "tricks": {"EW": 7, "NS": 6},
        }
    )
    home, away = seating.HOME, seating.AWAY
    assert (outcome.points(home), outcome.points(away)) == (3, 1)
    assert (outcome.difference_for(home), outcome.difference_for(away)) == (4, -4)
    assert (outcome.deals(home), outcome.games(away), outcome.tricks(away)) == (2, 1, 6)
    assert (outcome.level_points(home), outcome.level_points(away)) == (2, 0)
