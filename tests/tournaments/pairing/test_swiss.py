"""Rules of Swiss pairing for rounds 2..n (SPEC section 2)."""

import pytest

from tests.tournaments.pairing_helpers import field, tables, team
from tournaments.pairing import (
    FLAG_FLOATED,
    FLAG_REMATCH,
    FLAG_SAME_UNIT,
    PairingError,
    PairingTeam,
    pair_round,
)


def test_first_meets_second_third_meets_fourth():
    result = pair_round(field([4, 4, 4, 4, 2, 2]))
    assert tables(result) == [{1, 2}, {3, 4}, {5, 6}]
    assert result.bye is None


def test_rank_orders_teams_within_a_score_group():
    teams = [team(1, 2, rank=3), team(2, 2, rank=0), team(3, 2, rank=1), team(4, 2, rank=2)]
    assert tables(pair_round(teams)) == [{2, 3}, {4, 1}]


def test_never_a_rematch_first_meets_third_when_first_and_second_met():
    result = pair_round(field([4, 4, 4, 4], pairs_met=[(1, 2)]))
    assert tables(result) == [{1, 3}, {2, 4}]


def test_odd_score_group_floats_its_lowest_team_down():
    result = pair_round(field([4, 4, 4, 2, 2, 2]))
    assert tables(result) == [{1, 2}, {3, 4}, {5, 6}]
    floated = [p for p in result.pairings if FLAG_FLOATED in p.flags]
    assert [{p.home, p.away} for p in floated] == [{3, 4}]
    notes = [note for note in result.explanation if note.key == "pairing.note.floated"]
    assert [note.params["difference"] for note in notes] == [2]
    assert {notes[0].params["upper"], notes[0].params["lower"]} == {3, 4}


def test_no_float_flag_within_a_score_group():
    result = pair_round(field([4, 4, 2, 2]))
    assert all(FLAG_FLOATED not in p.flags for p in result.pairings)


def test_floats_the_shortest_distance():
    # 6v5 + 5v4 and 6v4 + 5v5 have the same total gap; two one-group floats are
    # shorter than one two-group float, so the top team meets the next best.
    result = pair_round(field([6, 5, 5, 4]))
    assert tables(result) == [{1, 2}, {3, 4}]


def test_floats_the_fewest_teams_by_reordering_inside_the_group_first():
    # 1 and 2 met: 1v3 and 2v4 keep everyone in the 4-point group.
    result = pair_round(field([4, 4, 4, 4, 2, 2], pairs_met=[(1, 2)]))
    assert tables(result) == [{1, 3}, {2, 4}, {5, 6}]
    assert not any(FLAG_FLOATED in p.flags for p in result.pairings)


def test_rematch_in_the_lower_group_floats_two_teams_one_group_each():
    result = pair_round(field([4, 4, 2, 2], pairs_met=[(3, 4)]))
    assert tables(result) == [{1, 3}, {2, 4}]
    assert all(FLAG_FLOATED in p.flags for p in result.pairings)


def test_group_that_cannot_be_completed_merges_with_the_next():
    # The top four have all met each other: they must all float.
    top_met = [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]
    result = pair_round(field([6, 6, 6, 6, 4, 4, 4, 4], pairs_met=top_met))
    pairs = tables(result)
    assert all(len(pair & {1, 2, 3, 4}) == 1 for pair in pairs)
    assert pairs[0] == {1, 5}


def test_pairing_is_a_minimum_cost_matching_not_greedy():
    # Greedy 1v2 would strand 3 and 4, who have met: the matching pairs 1v3, 2v4.
    result = pair_round(field([2, 2, 2, 2], pairs_met=[(3, 4)]))
    assert tables(result) == [{1, 3}, {2, 4}]


def test_table_one_is_the_top_pairing():
    result = pair_round(field([8, 8, 6, 6, 4, 4]))
    assert [p.table for p in result.pairings] == [1, 2, 3]
    assert tables(result) == [{1, 2}, {3, 4}, {5, 6}]


def test_bye_goes_to_lowest_ranked_team_without_a_bye():
    result = pair_round(field([4, 4, 2, 2, 0]))
    assert result.bye == 5
    assert tables(result) == [{1, 2}, {3, 4}]
    assert result.explanation[0].key == "pairing.note.bye"
    assert result.explanation[0].params == {"team": 5}


def test_bye_skips_a_team_that_already_had_one():
    teams = field([4, 4, 2, 2, 0])
    teams[4] = team(5, 0, rank=4, had_bye=True)
    result = pair_round(teams)
    assert result.bye == 4
    assert {5, 3} in tables(result)


def test_bye_passes_over_a_team_whose_absence_leaves_no_pairing():
    # Without 3, teams 1 and 2 (who met) would have to meet again.
    result = pair_round(field([2, 2, 0], pairs_met=[(1, 2)]))
    assert result.bye == 2
    assert tables(result) == [{1, 3}]
    assert result.explanation[0].key == "pairing.note.bye_skipped"
    assert result.explanation[0].params == {"team": 2, "teams": [3]}


def test_no_team_left_for_the_bye_gives_a_second_bye_to_confirm():
    teams = [team(i, 0, had_bye=True) for i in (1, 2, 3)]
    result = pair_round(teams)
    assert result.bye == 3 and result.repeated_bye
    assert result.needs_confirmation and result.rematches == 1
    assert [note.key for note in result.explanation[:2]] == [
        "pairing.note.least_bad",
        "pairing.note.second_bye",
    ]


def test_withdrawn_and_suspended_teams_are_left_out():
    teams = field([4, 4, 2, 2])
    teams[1] = team(2, 4, rank=1, active=False)
    teams.append(team(5, 0, rank=4, active=False))
    result = pair_round(teams)
    paired = {t for pair in tables(result) for t in pair} | {result.bye}
    assert 2 not in paired and 5 not in paired
    assert result.bye == 4


def test_same_unit_teams_kept_apart_within_a_score_group():
    result = pair_round(field([2, 2, 2, 2], units=["Suzhou", "Suzhou", "Wuxi", "Wuxi"]))
    assert tables(result) == [{1, 3}, {2, 4}]
    assert not any(FLAG_SAME_UNIT in p.flags for p in result.pairings)


def test_same_unit_is_only_a_soft_preference_below_score_gaps():
    result = pair_round(field([4, 4, 2, 2], units=["Suzhou", "Suzhou", "Wuxi", "Wuxi"]))
    assert tables(result) == [{1, 2}, {3, 4}]
    assert all(FLAG_SAME_UNIT in p.flags for p in result.pairings)
    assert any(
        note.key == "pairing.note.same_unit" and note.params["unit"] == "Suzhou"
        for note in result.explanation
    )


def test_same_unit_avoidance_can_be_switched_off():
    teams = field([2, 2, 2, 2], units=["Suzhou", "Suzhou", "Wuxi", "Wuxi"])
    assert tables(pair_round(teams, avoid_same_unit=False)) == [{1, 2}, {3, 4}]


def test_fractional_scores_pair_by_score():
    result = pair_round(field([2.5, 2.5, 1.5, 1.5]))
    assert tables(result) == [{1, 2}, {3, 4}]


def test_no_rematch_free_pairing_proposes_the_least_bad_one_flagged():
    everyone_met = [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]
    result = pair_round(field([2, 2, 0, 0], pairs_met=everyone_met))
    # every table is a rematch; then the usual costs: 1v2 and 3v4 (no score gap)
    assert tables(result) == [{1, 2}, {3, 4}]
    assert all(FLAG_REMATCH in p.flags for p in result.pairings)
    assert result.rematches == 2 and result.needs_confirmation
    note = result.explanation[0]
    assert note.key == "pairing.note.least_bad"
    assert note.params["rematches"] == 2 and len(note.params["teams"]) == 4


def test_least_bad_pairing_has_the_fewest_rematches():
    # 1..4 have all met, 5 and 6 have met, and 1 has met 5 and 6: the best any
    # pairing can do is two fresh tables (2v5, 3v6) and one rematch.
    met_pairs = [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4), (5, 6), (1, 5), (1, 6)]
    result = pair_round(field([4, 4, 2, 2, 0, 0], pairs_met=met_pairs))
    assert result.rematches == 1
    flagged = [p for p in result.pairings if FLAG_REMATCH in p.flags]
    assert len(flagged) == 1


def test_two_teams_that_met_are_proposed_as_a_rematch():
    result = pair_round(field([2, 0], pairs_met=[(1, 2)]))
    assert tables(result) == [{1, 2}]
    assert result.pairings[0].flags >= {FLAG_REMATCH}


def test_a_rematch_free_pairing_never_needs_confirmation():
    result = pair_round(field([4, 4, 2, 2], pairs_met=[(3, 4)]))
    assert result.rematches == 0 and not result.needs_confirmation
    assert not any(FLAG_REMATCH in p.flags for p in result.pairings)


def test_fewer_than_two_active_teams_is_an_error():
    with pytest.raises(PairingError, match="at least two are needed"):
        pair_round([team(1)])


@pytest.mark.parametrize(
    ("teams", "message"),
    [
        ([team(1), team(1)], "team 1 is listed twice"),
        ([team(1, recent_sides=("E",)), team(2)], "recent side 'E'"),
        ([team(1, opponents=frozenset({1})), team(2)], "lists itself"),
        ([{"id": 1}, team(2)], "expected PairingTeam values, got dict"),
        ([team(1, score="4"), team(2)], "team 1: score must be a number, got '4'"),
        ([PairingTeam(1, rank="top"), team(2)], "team 1: rank must be a number"),
    ],
)
def test_bad_input_gets_an_error_naming_what_is_wrong(teams, message):
    with pytest.raises(PairingError, match=message):
        pair_round(teams)


def test_large_score_groups_pair_1v2_beyond_the_sparse_window():
    # 300 teams in one score group: far larger than the matching window.
    teams = [PairingTeam(id=i, score=0, rank=i) for i in range(300)]
    result = pair_round(teams, window=4)
    assert tables(result) == [{2 * i, 2 * i + 1} for i in range(150)]


def test_unique_scores_are_not_flagged_floated_on_every_table():
    # 20-point scale: every score is its own group; no team left a group of its own
    result = pair_round(field([35, 34, 31, 30, 22, 19]))
    assert not any(FLAG_FLOATED in p.flags for p in result.pairings)
    assert not any(note.key == "pairing.note.floated" for note in result.explanation)


def test_floated_when_a_team_leaves_a_shared_score_group_with_the_difference():
    # 35 v 34 takes a team out of the 34 group; 34 v 34 and 30 v 29 are no floats
    result = pair_round(field([35, 34, 34, 34, 30, 29]))
    floated = [{p.home, p.away} for p in result.pairings if FLAG_FLOATED in p.flags]
    assert floated == [{1, 2}]
    notes = [n.params["difference"] for n in result.explanation if n.key == "pairing.note.floated"]
    assert notes == [1]
