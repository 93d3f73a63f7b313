"""Issue 36 (SPEC 3.1), the scoring of an edition, computed by hand: exact match points
(南山杯 2026: 1 / 0.5 / 0, absent −1, bye 1), a bye apart from a forfeit, the tiebreaks wins
(胜场数) and 贡献分, head-to-head skipped for three or more tied teams, and tie-breaks per kind
of stage."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from rules_engine.presets import (
    NANSHAN_GROUP_ORDER,
    NANSHAN_SWISS_ORDER,
    bye_level_difference,
    bye_points,
    get_preset,
)
from tournaments.standings import MatchOutcome, compute_standings
from tournaments.standings.core import bye_outcome
from tournaments.standings.units import TeamPlace, unit_standings

NANSHAN = get_preset("guandan-nanshan-2026")
D = Decimal


def won(round_no, winner, loser, net=1, acc=(0, 0)):
    """``winner`` beat ``loser`` (南山杯 1 : 0) by ``net`` levels (累积小分 ``acc``)."""
    return MatchOutcome(
        round_no,
        winner,
        loser,
        1,
        0,
        net,
        home_acc_levels=acc[0] or net,
        away_acc_levels=acc[1],
        winner=winner,
    )


def drew(round_no, home, away):
    return MatchOutcome(round_no, home, away, D("0.5"), D("0.5"))


def order(rows):
    return [row.team for row in rows]


@given(st.integers(min_value=0, max_value=400))
def test_many_half_points_sum_exactly(halves):
    """No float drift: n draws of 0.5 are exactly n/2, and shown without trailing zeros."""
    outcomes = [drew(r, 1, 2) for r in range(1, halves + 1)]
    rows = compute_standings([1, 2], outcomes, ("points",))
    assert rows[0].points == D(halves) / 2
    assert isinstance(rows[0].points, Decimal)
    assert str(rows[0].points) in (f"{halves // 2}", f"{halves // 2}.5")  # never "1.0", "0.50"


def test_points_one_half_zero_and_minus_one_sum_exactly():
    """附录一 一.4: win 1, draw 0.5, loss 0, absent −1 (its opponent 1)."""
    absent = MatchOutcome(3, 1, 3, 1, -1, winner=1, forfeit=True)
    outcomes = [won(1, 1, 2), drew(2, 1, 3), drew(2, 2, 4), absent, won(3, 2, 4)]
    rows = compute_standings([1, 2, 3, 4], outcomes, ("points",))
    assert {row.team: row.points for row in rows} == {
        1: D("2.5"),
        2: D("1.5"),
        3: D("-0.5"),
        4: D("0.5"),
    }
    assert [str(row.points) for row in rows] == ["2.5", "1.5", "0.5", "-0.5"]


def test_bye_scores_its_own_points_and_small_points_apart_from_a_forfeit():
    """A bye scores the edition's bye points (南山杯: 1, and a win), a forfeit its forfeit
    points (1 : −1); a bye that carries no small points adds no level difference."""
    bye = bye_outcome(1, 1, (bye_points(NANSHAN), 0), bye_level_difference(NANSHAN))
    forfeit = MatchOutcome(1, 2, 3, 1, -1, winner=2, forfeit=True)
    rows = compute_standings([1, 2, 3], [bye, forfeit], ("points", "wins", "level_diff"))
    by_team = {row.team: row for row in rows}
    assert [by_team[t].points for t in (1, 2, 3)] == [1, 1, -1]
    assert [by_team[t].metrics["wins"] for t in (1, 2, 3)] == [1, 1, 0]
    assert by_team[1].metrics["level_diff"] == 0  # 南山杯: no small points for a bye
    suzhou = get_preset("guandan-suzhou-2016")
    carried = bye_outcome(1, 1, (bye_points(suzhou), 0), bye_level_difference(suzhou))
    assert (carried.home_points, carried.home_level_diff) == (17, 7)  # Suzhou: 17 ↔ 7 levels


def test_wins_breaks_a_tie_on_points():
    """胜场数: 1 (a win and a loss) and 2 (two draws) both have 1 point; 1 won a match."""
    outcomes = [won(1, 1, 3), drew(1, 2, 4), won(2, 4, 1), drew(2, 2, 3)]
    assert order(compute_standings([1, 2, 3, 4], outcomes, ("points",)))[1:3] in ([1, 2], [2, 1])
    rows = compute_standings([1, 2, 3, 4], outcomes, ("points", "wins"))
    assert order(rows) == [4, 1, 2, 3]  # 4: 1.5; 1 and 2: 1 point, wins 1 and 0; 3: 0.5
    assert [row.metrics["wins"] for row in rows] == [1, 1, 0, 0]


def test_contribution_is_the_accumulated_levels_after_points_opponents_and_wins():
    """贡献分 (附录一 一.3, read as 累积小分: own level − 2, +1 passing A): 1 beat 3 playing to
    K (11), 2 beat 4 playing to 10 (8); equal points, 对手分 (0 each) and wins."""
    outcomes = [won(1, 1, 3, net=5, acc=(11, 6)), won(1, 2, 4, net=6, acc=(8, 2))]
    rows = compute_standings([1, 2, 3, 4], outcomes, NANSHAN_SWISS_ORDER)
    assert order(rows)[:2] == [1, 2]
    assert [(r.metrics["opponents_points"], r.metrics["wins"]) for r in rows[:2]] == [(0, 1)] * 2
    assert [row.metrics["contribution"] for row in rows] == [11, 8, 6, 2]


def test_nanshan_swiss_order_opponents_points_then_wins_by_hand():
    """附录一 一.3: 总积分、对手分、胜场数、贡献分. 2 and 3 have 1 point each and 对手分 2
    (2 met 1 (1.5) and 4 (0.5); 3 met 4 (0.5) and 1 (1.5)); 2 won a match, 3 none. (1 met 2
    and 3: 对手分 2; 4 met 3 and 2: 2.)"""
    outcomes = [won(1, 1, 2), drew(1, 3, 4), drew(2, 1, 3), won(2, 2, 4)]
    rows = compute_standings([1, 2, 3, 4], outcomes, NANSHAN_SWISS_ORDER)
    assert order(rows) == [1, 2, 3, 4]
    assert [row.points for row in rows] == [D("1.5"), 1, 1, D("0.5")]
    assert [row.metrics["opponents_points"] for row in rows] == [2, 2, 2, 2]
    assert str(rows[1].metrics["opponents_points"]) == "2"  # 1.5 + 0.5, not "2.0"


# 1, 2, 3 tied on 2 points and all met: 1 beat 2 and 3, 2 beat 3 (head-to-head 2, 1, 0);
# net levels say the opposite: 3 +16, 2 +4, 1 −3. Teams 4 and 5 complete the rounds.
THREE_TIED = [
    won(1, 1, 2, net=1),
    won(1, 3, 4, net=9),
    won(2, 1, 3, net=1),
    won(2, 2, 5, net=4),
    won(3, 2, 3, net=1),
    won(3, 4, 1, net=5),
    won(4, 3, 5, net=9),
]


def test_head_to_head_is_skipped_for_three_tied_teams():
    """南山杯 附录一 二.4 (and 2017): 3 队及以上总积分相同时，则比较各队的净积小分和累积小分."""
    full = compute_standings(range(1, 6), THREE_TIED, ("points", "head_to_head", "net_levels"))
    assert order(full)[:3] == [1, 2, 3]  # head-to-head among all three would decide
    rows = compute_standings(range(1, 6), THREE_TIED, NANSHAN_GROUP_ORDER)
    assert order(rows)[:3] == [3, 2, 1]  # skipped: 净积小分 decides
    assert [row.metrics["head_to_head_two"] for row in rows[:3]] == [None, None, None]


def test_head_to_head_decides_two_tied_teams():
    """Two tied teams: the one that won their match ranks first, whatever the net levels.
    1 and 2 have 2 points (1 beat 2; 2's net +6, 1's +1); 3 and 4 have 1 (3 beat 4)."""
    outcomes = [
        won(1, 1, 2, net=1),
        won(1, 3, 4, net=2),
        won(2, 2, 3, net=6),
        won(2, 4, 1, net=1),
        won(3, 1, 3, net=1),
        won(3, 2, 4, net=1),
    ]
    assert order(compute_standings(range(1, 5), outcomes, ("points", "net_levels"))) == [
        2,
        1,
        4,
        3,
    ]
    rows = compute_standings(range(1, 5), outcomes, NANSHAN_GROUP_ORDER)
    assert order(rows) == [1, 2, 3, 4]
    assert [row.metrics["head_to_head_two"] for row in rows] == [1, 0, 1, 0]


def test_tie_breaks_per_kind_of_stage():
    """SPEC 3.1: the 南山杯 Swiss (海选赛) and groups (小组赛) rank by their own orders; a kind
    the edition does not name (knockout seeding) ranks by its standings order."""
    assert NANSHAN.standings_order_for("swiss") == NANSHAN_SWISS_ORDER
    assert NANSHAN.standings_order_for("round_robin") == NANSHAN_GROUP_ORDER
    assert NANSHAN.standings_order_for("knockout") == NANSHAN.standings_order
    assert get_preset("guandan-national-2017").standings_order_for("swiss") == (
        get_preset("guandan-national-2017").standings_order
    )


def test_unit_points_sum_exactly_and_units_add_wins():
    places = [
        TeamPlace(1, "A", 1, D("1.5"), {"wins": 1}),
        TeamPlace(2, "A", 2, D("0.5"), {"wins": 0}),
        TeamPlace(3, "B", 3, D("1"), {"wins": 1}),
        TeamPlace(4, "B", 4, D("1"), {"wins": 0}),
    ]
    rows = unit_standings(places, ("points", "wins"))
    assert [(row.unit, str(row.points), row.metrics["wins"]) for row in rows] == [
        ("A", "2", 1),
        ("B", "2", 1),
    ]
