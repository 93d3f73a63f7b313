"""Tiebreak fixes (SPEC section 3): head-to-head only among teams that have all met, the
level difference of a forfeit and a bye from the preset's table, draw lots from a seed,
and the national preset's 场分 + 级差分 order."""

import pytest

from rules_engine.presets import PRESETS, forfeit_level_difference, get_preset
from tests.tournaments.round_helpers import add_result, make_round, play_round
from tournaments.standings import MatchOutcome, compute_standings, service
from tournaments.standings.core import StandingsError, bye_outcome, draw_lots

H2H_THEN_LEVELS = ("points", "head_to_head", "level_diff")


def win(round_no, winner, loser, diff=1, points=(2, 0), **fields):
    return MatchOutcome(round_no, winner, loser, points[0], points[1], diff, **fields)


def order(rows):
    return [row.team for row in rows]


def test_head_to_head_applies_when_every_tied_team_has_met_every_other():
    # 1, 2, 3 all on 2 points after a cycle; 1 beat 2 by 1, 2 beat 3 by 5, 3 beat 1 by 1:
    # head-to-head points are equal (2 each), then level difference decides (+4, 0, -4)
    outcomes = [win(1, 1, 2, 1), win(2, 2, 3, 5), win(3, 3, 1, 1)]
    rows = compute_standings([1, 2, 3], outcomes, H2H_THEN_LEVELS)
    assert order(rows) == [2, 1, 3]
    assert [row.metrics["head_to_head"] for row in rows] == [2, 2, 2]
    # two teams tied after all have met: 1 beat 2, so 1 is above 2
    two = [win(1, 1, 2, 1), win(2, 2, 3, 9), win(2, 1, 4, 1), win(3, 3, 4, 1)]
    rows = compute_standings([1, 2, 3, 4], two, H2H_THEN_LEVELS)
    assert order(rows)[:2] == [1, 2]


def test_head_to_head_is_skipped_when_the_tied_teams_have_not_all_met():
    # 1, 2, 3, 4 tied on 2 points; 1 beat 2, but 3 met neither: head-to-head would put
    # 1 above 2 — it is skipped and level difference decides: 3 (+6), 2 (+2), 1 (+1)
    outcomes = [win(1, 1, 2, 1), win(1, 3, 4, 6), win(2, 2, 4, 3), win(3, 4, 5, 1)]
    rows = compute_standings([1, 2, 3, 4, 5], outcomes, H2H_THEN_LEVELS)
    assert order(rows)[:3] == [3, 2, 1]
    assert {rows[i].metrics["head_to_head"] for i in range(4)} == {None}


def test_head_to_head_shows_the_real_figure_among_tied_teams_and_none_for_a_team_alone():
    # issue 35: the column read 0 for every team. 1 beat 2; 4 beat 1; 2 beat 3. On points
    # then level difference: 4 alone (2, +1); 1 and 2 tied (2, 0), who met: 1 scored 2
    # against 2, 2 scored 0 against 1; 3 alone (0, -1). A team alone has no figure.
    outcomes = [win(1, 1, 2), win(2, 4, 1), win(2, 2, 3)]
    rows = compute_standings([1, 2, 3, 4], outcomes, ("points", "level_diff", "head_to_head"))
    assert order(rows) == [4, 1, 2, 3]
    assert [row.metrics["head_to_head"] for row in rows] == [None, 2, 0, None]


def test_forfeit_level_difference_comes_from_the_preset_table():
    assert forfeit_level_difference(get_preset("guandan-suzhou-2016")) == 7  # 17 = 7 levels
    assert forfeit_level_difference(get_preset("guandan-national")) == 7  # 20 : 6
    assert forfeit_level_difference(get_preset("tractor")) == 0  # no table
    off = get_preset("guandan-suzhou-2016").with_overrides(forfeit_level_difference=0)
    assert forfeit_level_difference(off) == 0


def test_a_bye_and_a_forfeit_count_their_level_difference_in_the_standings(make_event):
    event = make_event(teams=5)  # guandan-suzhou-2016: forfeit 17:0 = 7 levels
    a, b, c, d, e = event.teams.order_by("pk")
    rnd = make_round(event, 1, [(a, b), (c, d)], byes=[e])
    add_result(rnd.matches.get(home=a))  # a wins by 3
    add_result(rnd.matches.get(home=c), deals=[], forfeit="NS")  # d did not play
    rows = {row.team: row for row in service.standings_for(event)}
    assert rows[e.pk].metrics["level_diff"] == 7
    assert (rows[c.pk].metrics["level_diff"], rows[d.pk].metrics["level_diff"]) == (7, -7)
    assert rows[a.pk].metrics["level_diff"] == 3


def test_draw_lots_is_a_recorded_reproducible_draw():
    lots, record = draw_lots([7, 3, 9], seed=2026)
    again, _ = draw_lots([9, 7, 3], seed=2026)
    assert lots == again and sorted(lots.values()) == [1, 2, 3]
    assert record["seed"] == 2026 and sorted(record["order"]) == [3, 7, 9]
    assert [lots[team] for team in record["order"]] == [1, 2, 3]
    rows = compute_standings([3, 7, 9], [], ("points", "draw_lots"), draw_lots=lots)
    assert order(rows) == record["order"]
    with pytest.raises(StandingsError, match="whole number"):
        draw_lots([1], seed="x")


def test_national_preset_ranks_by_match_points_then_level_points_then_level_difference():
    national = PRESETS["guandan-national"].standings_order
    # 1 and 2 both won once (2 场分); 1 by 4 levels (17 级差分), 2 by 5 (18): 2 first.
    # 3 and 4 both lost once; 3 by 4 (9), 4 by 5 (8).
    outcomes = [
        win(1, 1, 3, 4, home_level_points=17, away_level_points=9),
        win(1, 2, 4, 5, home_level_points=18, away_level_points=8),
    ]
    rows = compute_standings([1, 2, 3, 4], outcomes, national)
    assert order(rows) == [2, 1, 3, 4]
    assert rows[0].metrics["level_points"] == 18
    # equal 级差分: total level difference decides
    same = [
        win(1, 1, 3, 4, home_level_points=17, away_level_points=9),
        win(1, 2, 4, 3, home_level_points=17, away_level_points=9),
        bye_outcome(2, 2, (2, 0), level_diff=7, level_points=20),
        bye_outcome(2, 1, (2, 0), level_diff=8, level_points=20),
    ]
    assert order(compute_standings([1, 2, 3, 4], same, national))[:2] == [1, 2]


def test_national_preset_standings_read_the_engine_s_level_points(make_event):
    event = make_event(teams=4, preset="guandan-national")
    a, b, c, d = event.teams.order_by("pk")
    play_round(event, 1, [(a, b), (c, d)])  # both home teams win by 3: 16 : 10
    rows = {row.team: row for row in service.standings_for(event)}
    assert (rows[a.pk].points, rows[a.pk].metrics["level_points"]) == (2, 16)
    assert (rows[b.pk].points, rows[b.pk].metrics["level_points"]) == (0, 10)


def test_a_recorded_draw_of_lots_decides_the_tied_group_it_was_drawn_among():
    rows = compute_standings([3, 7, 9], [], ("points", "draw_lots"), draws=[(9, 3, 7)])
    assert [(row.team, row.rank, row.shared) for row in rows] == [
        (9, 1, False),
        (3, 2, False),
        (7, 3, False),
    ]


def test_a_draw_of_lots_does_not_decide_a_group_with_a_team_it_did_not_include():
    rows = compute_standings([3, 7, 9], [], ("points", "draw_lots"), draws=[(9, 3)])
    assert all(row.shared and row.rank == 1 for row in rows)


def test_the_latest_draw_of_lots_covering_a_tie_decides_it():
    rows = compute_standings([3, 7], [], ("points", "draw_lots"), draws=[(3, 7), (7, 3)])
    assert [row.team for row in rows] == [7, 3]
