"""Unit standings (SPEC §2): the best N teams of a unit, then their tiebreak sums."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.standings.units import TeamPlace, unit_standings

ORDER = ("points", "level_diff", "head_to_head", "draw_lots")


def place(team, unit, rank, points, level_diff=0, active=True):
    return TeamPlace(team, unit, rank, points, {"level_diff": level_diff}, active)


def test_unit_ranks_by_its_best_two_teams_points():
    places = [
        place(1, "苏州", 1, 40),
        place(2, "无锡", 2, 38),
        place(3, "无锡", 3, 36),
        place(4, "苏州", 4, 20),
        place(5, "苏州", 5, 19),  # a third team of 苏州 does not count
    ]
    rows = unit_standings(places, ORDER)
    assert [(r.unit, r.rank, r.points, r.teams) for r in rows] == [
        ("无锡", 1, 74, (2, 3)),
        ("苏州", 2, 60, (1, 4)),
    ]


def test_equal_points_are_split_by_the_summed_level_difference_then_shared():
    places = [
        place(1, "A", 1, 30, level_diff=5),
        place(2, "B", 2, 30, level_diff=9),
        place(3, "C", 3, 30, level_diff=9),
    ]
    rows = unit_standings(places, ORDER, best_teams=1)
    assert [(r.unit, r.rank, r.shared) for r in rows] == [
        ("B", 1, True),
        ("C", 1, True),
        ("A", 3, False),
    ]


def test_withdrawn_teams_and_teams_without_a_unit_do_not_count():
    places = [place(1, "A", 1, 30, active=False), place(2, "", 2, 28), place(3, "A", 3, 10)]
    rows = unit_standings(places, ORDER)
    assert [(r.unit, r.points, r.teams) for r in rows] == [("A", 10, (3,))]


def test_hinting_unit_drops_one_place_in_the_final_ranking():
    places = [place(1, "A", 1, 40), place(2, "B", 2, 30), place(3, "C", 3, 20)]
    rows = unit_standings(places, ORDER, best_teams=1, moved_down={"A": 1})
    assert [(r.unit, r.rank, r.moved_down) for r in rows] == [("B", 1, 0), ("A", 2, 1), ("C", 3, 0)]


def test_best_teams_must_be_one_or_more():
    with pytest.raises(ValueError):
        unit_standings([], ORDER, best_teams=0)


@given(
    st.lists(
        st.tuples(st.sampled_from("ABCD"), st.integers(0, 60), st.integers(-20, 20)),
        min_size=1,
        max_size=30,
    ),
    st.integers(1, 4),
)
def test_unit_points_are_the_sum_of_at_most_n_of_its_teams(entries, best):
    ranked = sorted(enumerate(entries), key=lambda item: -item[1][1])
    places = [
        place(team, unit, rank + 1, points, diff)
        for rank, (team, (unit, points, diff)) in enumerate(ranked)
    ]
    rows = unit_standings(places, ORDER, best_teams=best)
    assert sorted(r.unit for r in rows) == sorted({unit for unit, _p, _d in entries})
    for row in rows:
        assert len(row.teams) <= best
        assert row.points == sum(p.points for p in places if p.team in row.teams)
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
