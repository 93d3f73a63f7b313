"""Standings and tiebreaks of each preset (SPEC section 3)."""

import pytest

from rules_engine.presets import PRESETS, STANDINGS_METRICS
from tournaments.standings import (
    METRICS,
    MatchOutcome,
    StandingsError,
    compute_standings,
    round_ranks,
)

SUZHOU = PRESETS["guandan-suzhou-2016"].standings_order
NATIONAL = PRESETS["guandan-national-2017"].standings_order
TRACTOR = PRESETS["tractor"].standings_order
CHENGYU = PRESETS["chengyu"].standings_order


def win(round_no, winner, loser, points=(2, 0), **fields):
    return MatchOutcome(round_no, winner, loser, points[0], points[1], **fields)


def order_of(rows):
    return [row.team for row in rows]


def test_metric_registry_covers_the_preset_vocabulary():
    assert tuple(METRICS) == STANDINGS_METRICS
    for preset in PRESETS.values():
        compute_standings([1, 2], [], preset.standings_order)


def test_every_metric_has_english_and_chinese_labels():
    """The pure core holds keys only; the words are the glossary's, in both languages."""
    from django.utils import translation

    from tournaments.glossary import METRICS as WORDS

    assert set(WORDS) == set(METRICS)
    for key, metric in METRICS.items():
        assert metric.key == key
        with translation.override("en"):
            english = str(WORDS[key])
        with translation.override("zh-hans"):
            chinese = str(WORDS[key])
        assert english and chinese != english, f"no Chinese for the {key} label"


def test_more_points_ranks_first():
    rows = compute_standings([1, 2, 3], [win(1, 3, 1), win(2, 3, 2), win(3, 2, 1)], TRACTOR)
    assert order_of(rows) == [3, 2, 1]
    assert [row.points for row in rows] == [4, 2, 0]
    assert [row.rank for row in rows] == [1, 2, 3]


def test_total_level_difference_breaks_a_points_tie():
    # Tractor seed: an 8:2 win is +6 levels, a 3:6 loss is -3.
    outcomes = [
        win(1, 1, 3, home_level_diff=6),
        win(1, 2, 4, home_level_diff=2),
        MatchOutcome(2, 3, 1, 2, 0, home_level_diff=3),
        MatchOutcome(2, 4, 2, 2, 0, home_level_diff=1),
    ]
    rows = compute_standings([1, 2, 3, 4], outcomes, TRACTOR)
    assert order_of(rows)[:2] == [1, 2]
    assert rows[0].metrics["level_diff"] == 3
    assert rows[1].metrics["level_diff"] == 1


def test_higher_score_in_the_latest_round_breaks_a_tractor_tie():
    outcomes = [
        MatchOutcome(1, 1, 3, 2, 0, home_level_diff=2),
        MatchOutcome(1, 2, 4, 1, 1),
        MatchOutcome(2, 1, 4, 0, 2, home_level_diff=-2),
        MatchOutcome(2, 2, 3, 1, 1),
    ]
    rows = compute_standings([1, 2, 3, 4], outcomes, TRACTOR)
    # 1 and 2: 2 points and level difference 0 each; in round 2, 2 scored 1 and 1 scored 0.
    assert order_of(rows) == [4, 2, 1, 3]
    assert [row.metrics["latest_round_score"] for row in rows[1:3]] == [1, 0]


def test_head_to_head_counts_only_matches_among_exactly_the_tied_teams():
    # 1, 2, 3 tied on 30 points; among them 2 beat 1, 1 beat 3, 3 drew 2.
    outcomes = [
        win(1, 2, 1, points=(20, 0)),
        win(1, 3, 4, points=(20, 0)),
        win(2, 1, 3, points=(20, 0)),
        MatchOutcome(3, 3, 2, 10, 10),
        MatchOutcome(3, 1, 4, 10, 10),
    ]
    rows = compute_standings([1, 2, 3, 4], outcomes, SUZHOU)
    assert [row.points for row in rows[:3]] == [30, 30, 30]
    assert order_of(rows) == [2, 1, 3, 4]
    # 3's 20 points against the outsider 4 do not count
    assert [row.metrics["head_to_head"] for row in rows[:3]] == [30, 20, 10]


def test_head_to_head_applies_again_among_the_teams_still_tied():
    # All four tied; head-to-head over the four puts 1 first (6) and leaves 2, 3, 4
    # on 4 each; among exactly 2, 3, 4 the points are 4, 1 and 3.
    outcomes = [
        MatchOutcome(1, 1, 2, 3, 0),
        MatchOutcome(1, 3, 4, 1, 2),
        MatchOutcome(2, 1, 3, 1, 3),
        MatchOutcome(2, 2, 4, 1, 1),
        MatchOutcome(3, 1, 4, 2, 1),
        MatchOutcome(3, 2, 3, 3, 0),
    ]
    rows = compute_standings([1, 2, 3, 4], outcomes, ("head_to_head",))
    assert order_of(rows) == [1, 2, 4, 3]
    assert [row.metrics["head_to_head"] for row in rows] == [6, 4, 3, 1]


def test_head_to_head_two_applies_only_when_exactly_two_teams_are_tied():
    rows = compute_standings([1, 2], [win(1, 2, 1, points=(3, 1))], ("head_to_head_two",))
    assert order_of(rows) == [2, 1]
    three_tied = [
        MatchOutcome(1, 1, 2, 2, 2),
        MatchOutcome(2, 2, 3, 2, 2),
        MatchOutcome(3, 3, 1, 2, 2),
    ]
    rows = compute_standings([1, 2, 3], three_tied, ("head_to_head_two",))
    assert all(row.shared and row.rank == 1 for row in rows)
    assert all(row.metrics["head_to_head_two"] is None for row in rows)


def test_national_order_uses_net_then_accumulated_levels():
    outcomes = [
        MatchOutcome(1, 1, 3, 3, 1, home_acc_levels=10, away_acc_levels=4),
        MatchOutcome(1, 2, 4, 3, 1, home_acc_levels=12, away_acc_levels=6),
        MatchOutcome(2, 5, 6, 3, 1, home_acc_levels=13, away_acc_levels=7),
    ]
    rows = compute_standings([1, 2, 3, 4, 5, 6], outcomes, NATIONAL)
    assert order_of(rows)[:3] == [5, 2, 1]
    assert rows[0].metrics["net_levels"] == 6 and rows[0].metrics["accumulated_levels"] == 13
    assert rows[1].metrics["net_levels"] == 6 and rows[1].metrics["accumulated_levels"] == 12


def test_chengyu_ranks_by_deals_won_then_tricks_difference():
    outcomes = [
        MatchOutcome(
            1, 1, 4, 2, 0, home_deals_won=2, away_deals_won=1, home_tricks=20, away_tricks=19
        ),
        MatchOutcome(
            1, 2, 5, 2, 0, home_deals_won=3, away_deals_won=0, home_tricks=24, away_tricks=15
        ),
        MatchOutcome(
            1, 3, 6, 2, 0, home_deals_won=2, away_deals_won=1, home_tricks=22, away_tricks=17
        ),
    ]
    rows = compute_standings(range(1, 7), outcomes, CHENGYU)
    assert order_of(rows)[:3] == [2, 3, 1]
    assert rows[1].metrics["tricks_diff"] == 5


def test_opponents_points_sum_the_totals_of_every_opponent():
    outcomes = [win(1, 1, 2), win(1, 3, 4), win(2, 1, 3), win(2, 4, 2)]
    rows = compute_standings([1, 2, 3, 4], outcomes, ("points", "opponents_points"))
    assert order_of(rows) == [1, 3, 4, 2]
    assert [row.metrics["opponents_points"] for row in rows] == [2, 6, 2, 6]


def test_drawn_lots_break_the_last_tie_lower_lot_first():
    rows = compute_standings([1, 2, 3], [], SUZHOU, draw_lots={1: 3, 2: 1, 3: 2})
    assert order_of(rows) == [2, 3, 1]
    assert not any(row.shared for row in rows)


def test_teams_without_a_drawn_lot_share_their_rank():
    rows = compute_standings([1, 2, 3], [], SUZHOU, draw_lots={3: 1})
    assert [(row.team, row.rank, row.shared) for row in rows] == [
        (3, 1, False),
        (1, 2, True),
        (2, 2, True),
    ]


def test_teams_equal_on_every_metric_share_a_rank():
    outcomes = [win(1, 1, 2), win(1, 3, 4)]
    rows = compute_standings([1, 2, 3, 4], outcomes, CHENGYU)
    assert [row.rank for row in rows] == [1, 1, 3, 3]
    assert all(row.shared for row in rows)


def test_a_team_moved_down_one_place_in_the_final_ranking():
    outcomes = [win(1, 1, 2, points=(3, 0)), win(1, 3, 4, points=(2, 0))]
    rows = compute_standings([1, 2, 3, 4], outcomes, ("points",), moved_down={1: 1})
    assert order_of(rows) == [3, 1, 2, 4]
    assert [row.rank for row in rows] == [1, 2, 3, 3]
    assert rows[1].moved_down == 1


def test_round_ranks_follow_each_round():
    outcomes = [win(1, 1, 2), win(1, 3, 4), win(2, 2, 3), win(2, 4, 1)]
    ranks = round_ranks([1, 2, 3, 4], outcomes, ("points", "opponents_points"))
    assert ranks[1] == {1: 1, 3: 1, 2: 3, 4: 3}
    assert ranks[2] == {
        row.team: row.rank
        for row in compute_standings([1, 2, 3, 4], outcomes, ("points", "opponents_points"))
    }


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: compute_standings([1], [], ("points", "elo")), "unknown standings metric 'elo'"),
        (lambda: compute_standings([1], [win(1, 1, 9)], ("points",)), "unknown team 9"),
        (lambda: compute_standings([1, 2], [win(1, 1, 1)], ("points",)), "team 1 plays itself"),
        (
            lambda: compute_standings([1, 2, 3], [win(1, 1, 2), win(1, 3, 1)], ("points",)),
            "round 1: team 1 has more than one result",
        ),
        (lambda: compute_standings([1], [("1", "2")], ("points",)), "expected MatchOutcome"),
        (
            lambda: compute_standings([1], [], ("points",), moved_down={5: 1}),
            "adjustment for unknown team 5",
        ),
        (
            lambda: compute_standings([1], [], ("points",), moved_down={1: -2}),
            "whole numbers of places",
        ),
    ],
)
def test_bad_input_gets_an_error_naming_what_is_wrong(call, message):
    with pytest.raises(StandingsError, match=message):
        call()
