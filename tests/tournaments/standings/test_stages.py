"""Pure rankings of stages: knockout finishing order, sections re-ranked, the final ranking."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing.knockout import knockout_bracket, knockout_groups
from tournaments.standings.core import StandingRow
from tournaments.standings.stages import cut_ties, final_ranking, rerank


def play(bracket, rng):
    """Decide every match of the bracket at random; the winners by match id."""
    winners = {}
    for match in bracket.matches():
        home, away = bracket.sides(winners)[match.id]
        if away is not None:
            winners[match.id] = rng.choice((home, away))
    return winners


@given(size=st.integers(2, 40), third=st.booleans(), seed=st.integers(0, 10**6))
def test_a_knockout_ranks_every_entrant_once_champion_first_runner_up_second(size, third, seed):
    entrants = list(range(100, 100 + size))
    bracket = knockout_bracket(entrants, third_place=third)
    winners = play(bracket, random.Random(seed))
    groups = knockout_groups(bracket, winners)
    flat = [team for group in groups for team in group]
    assert sorted(flat) == entrants
    final = bracket.rounds[-1].matches[0]
    home, away = bracket.sides(winners)[final.id]
    champion = winners[final.id]
    assert groups[0] == [champion]
    assert groups[1] == [away if champion == home else home]
    if third and size >= 4:
        third_home, third_away = bracket.sides(winners)[bracket.third_place.id]
        third_winner = winners[bracket.third_place.id]
        assert groups[2] == [third_winner]
        assert groups[3] == [third_away if third_winner == third_home else third_home]
    for group in groups:  # inside a group the better seed first
        assert group == sorted(group)


def test_teams_still_in_play_rank_above_those_knocked_out():
    bracket = knockout_bracket(["A", "B", "C", "D"])
    groups = knockout_groups(bracket, {"R1-1": "A"})  # D lost; B v C not played yet
    assert groups == [["A", "B", "C"], ["D"]]


def test_semi_final_losers_share_third_without_a_third_place_match():
    bracket = knockout_bracket(["A", "B", "C", "D"])
    groups = knockout_groups(bracket, {"R1-1": "D", "R1-2": "B", "R2-1": "B"})
    assert groups == [["B"], ["D"], ["A", "C"]]


def test_a_section_ranked_out_of_wider_standings_is_numbered_again_ties_kept():
    rows = [
        StandingRow(1, 1, 6),
        StandingRow(2, 2, 4, shared=True),
        StandingRow(3, 2, 4, shared=True),
        StandingRow(4, 4, 4, shared=False),
        StandingRow(5, 5, 0),
    ]
    kept = rerank(rows, {2, 3, 5})
    assert [(row.team, row.rank, row.shared) for row in kept] == [
        (2, 1, True),
        (3, 1, True),
        (5, 3, False),
    ]


def test_the_final_ranking_follows_the_last_stage_then_the_stage_a_team_left():
    qualifier = [["a1", "b1"], ["a2", "b2"], ["a3", "b3"]]
    final = [["a1"], ["b1"], ["a2", "b2"]]
    ranking = final_ranking([("Q", qualifier), ("F", final)])
    assert [(row.team, row.rank, row.stage) for row in ranking] == [
        ("a1", 1, "F"),
        ("b1", 2, "F"),
        ("a2", 3, "F"),
        ("b2", 3, "F"),
        ("a3", 5, "Q"),
        ("b3", 5, "Q"),
    ]


def test_places_a_knockout_round_cannot_separate_follow_the_earlier_stage_when_set():
    swiss = [["a"], ["b"], ["c", "d"], ["e"], ["f"]]  # c and d tied in the Swiss
    knockout = [["e"], ["a"], ["b", "c", "d", "f"]]  # four quarter-final losers
    shared = final_ranking([("S", swiss), ("K", knockout)], "shared")
    assert [(r.team, r.rank) for r in shared][2:] == [("b", 3), ("c", 3), ("d", 3), ("f", 3)]
    split = final_ranking([("S", swiss), ("K", knockout)], "earlier_stage")
    assert [(r.team, r.rank, r.shared) for r in split] == [
        ("e", 1, False),
        ("a", 2, False),
        ("b", 3, False),
        ("c", 4, True),
        ("d", 4, True),
        ("f", 6, False),
    ]


def test_a_recorded_draw_of_lots_splits_a_shared_final_place():
    ranking = final_ranking([("K", [["a"], ["b"], ["c", "d"]])], "shared", draws=[("d", "c")])
    assert [(r.team, r.rank, r.shared) for r in ranking][2:] == [("d", 3, False), ("c", 4, False)]


def test_cut_ties_name_the_groups_across_a_line_only():
    groups = [["a"], ["b", "c"], ["d", "e", "f"], ["g"]]
    assert cut_ties(groups, [2]) == [(2, 2, ["b", "c"])]
    assert cut_ties(groups, [3]) == []  # the line falls between groups
    assert cut_ties(groups, [4, 5]) == [(4, 4, ["d", "e", "f"])]
