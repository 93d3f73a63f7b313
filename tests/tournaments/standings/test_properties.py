"""Properties of standings over random events."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.standings import random_outcomes
from tournaments.standings import METRICS, compute_standings, round_ranks

ORDERS = [
    ("points", "level_diff", "head_to_head", "draw_lots"),
    ("points", "head_to_head_two", "net_levels", "accumulated_levels", "draw_lots"),
    ("points", "level_diff", "latest_round_score"),
    ("points", "deals_won_diff", "tricks_diff"),
    ("points", "opponents_points", "head_to_head"),
]


events = st.tuples(
    st.integers(min_value=1, max_value=60),
    st.integers(min_value=1, max_value=9),
    st.integers(min_value=0, max_value=2**32),
    st.sampled_from(ORDERS),
)


@settings(max_examples=60, deadline=None)
@given(events)
def test_standings_rank_every_team_once_in_a_consistent_order(event):
    size, rounds, seed, order = event
    rng = random.Random(seed)
    lots = {team: rng.randint(1, size) for team in range(1, size + 1) if rng.random() < 0.8}
    rows = compute_standings(range(1, size + 1), random_outcomes(size, rounds, rng), order, lots)
    assert sorted(row.team for row in rows) == list(range(1, size + 1))
    assert [row.points for row in rows] == sorted((row.points for row in rows), reverse=True)
    for index, row in enumerate(rows):
        previous = rows[index - 1] if index else None
        tied_with_previous = previous is not None and previous.rank == row.rank
        assert row.rank == (previous.rank if tied_with_previous else index + 1)
        if tied_with_previous:
            # teams sharing a rank are equal on every plain metric
            plain = [key for key in order if not METRICS[key].contextual]
            assert all(row.metrics[key] == previous.metrics[key] for key in plain)
            assert row.shared and previous.shared


@settings(max_examples=40, deadline=None)
@given(events)
def test_standings_do_not_depend_on_the_order_results_were_stored(event):
    size, rounds, seed, order = event
    rng = random.Random(seed)
    outcomes = random_outcomes(size, rounds, rng)
    shuffled = outcomes[:]
    rng.shuffle(shuffled)
    teams = list(range(1, size + 1))
    assert compute_standings(teams, outcomes, order) == compute_standings(
        reversed(teams), shuffled, order
    )


@settings(max_examples=40, deadline=None)
@given(events)
def test_round_ranks_match_standings_recomputed_after_each_round(event):
    size, rounds, seed, order = event
    outcomes = random_outcomes(size, rounds, random.Random(seed))
    teams = range(1, size + 1)
    by_round = round_ranks(teams, outcomes, order)
    assert sorted(by_round) == list(range(1, rounds + 1))
    for round_no in (1, rounds):
        so_far = [outcome for outcome in outcomes if outcome.round_no <= round_no]
        expected = {row.team: row.rank for row in compute_standings(teams, so_far, order)}
        assert by_round[round_no] == expected
