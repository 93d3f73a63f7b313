"""Properties of whole simulated events: random sizes, rounds and results."""

import random

import networkx
import rustworkx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    FLAG_HOME_TWICE,
    PairingError,
    draw_first_round,
    pair_round,
)
from tournaments.pairing.core import standing_order
from tournaments.pairing.matching import even_blocks, match_teams, score_gap_bound
from tournaments.pairing.simulation import SimulatedEvent

EXACT_CHECK_LIMIT = 30  # networkx (pure Python) reference up to this many teams


def valid_pair_graph(teams):
    return [
        (a.id, b.id, abs(a.score - b.score))
        for index, a in enumerate(teams)
        for b in teams[index + 1 :]
        if b.id not in a.opponents
    ]


def optimal_total_gap(teams):
    """The least total score gap of any rematch-free pairing, or None if there is none."""
    edges = valid_pair_graph(teams)
    ceiling = 1 + max((gap for _, _, gap in edges), default=0)
    if len(teams) <= EXACT_CHECK_LIMIT:
        graph = networkx.Graph()
        graph.add_weighted_edges_from((a, b, ceiling - gap) for a, b, gap in edges)
        matching = networkx.max_weight_matching(graph, maxcardinality=True)
    else:
        graph = rustworkx.PyGraph()
        index = {team.id: graph.add_node(team.id) for team in teams}
        graph.add_edges_from([(index[a], index[b], ceiling - gap) for a, b, gap in edges])
        found = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
        matching = [(graph[a], graph[b]) for a, b in found]
    if 2 * len(matching) != len(teams):
        return None
    score = {team.id: team.score for team in teams}
    return sum(abs(score[a] - score[b]) for a, b in matching)


def assert_truly_impossible(teams):
    active = [team for team in teams if team.active]
    if len(active) < 2:
        return  # nothing to pair: an error, not a lone bye
    if len(active) % 2 == 0:
        assert optimal_total_gap(active) is None
        return
    for bye in (team for team in active if not team.had_bye):
        assert optimal_total_gap([team for team in active if team.id != bye.id]) is None


def check_round(teams, result):
    by_id = {team.id: team for team in teams}
    active = {team.id for team in teams if team.active}
    seated = [t for pairing in result.pairings for t in (pairing.home, pairing.away)]
    # every active team exactly once, nobody else
    assert sorted(seated + ([result.bye] if result.bye is not None else [])) == sorted(active)
    # never a rematch
    for pairing in result.pairings:
        assert pairing.away not in by_id[pairing.home].opponents
    # at most one bye per team, and only with an odd field
    assert (result.bye is not None) == (len(active) % 2 == 1)
    if result.bye is not None:
        assert not by_id[result.bye].had_bye
    # no third home in a row unless both teams were on a home streak
    for pairing in result.pairings:
        home, away = by_id[pairing.home], by_id[pairing.away]
        if home.recent_sides[-2:] == ("H", "H"):
            assert FLAG_HOME_TWICE in pairing.flags
            assert away.recent_sides[-2:] == ("H", "H")
    # score gaps never larger than needed
    remaining = [by_id[team_id] for team_id in seated]
    ours = sum(abs(by_id[p.home].score - by_id[p.away].score) for p in result.pairings)
    assert ours == optimal_total_gap(remaining)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.integers(min_value=2, max_value=200),
    rounds=st.integers(min_value=4, max_value=9),
    seed=st.integers(min_value=0, max_value=2**32),
    units=st.sampled_from([None, 2, 5, 30]),
    withdrawal_rate=st.sampled_from([0.0, 0.0, 0.02, 0.1]),
)
def test_simulated_events_keep_every_pairing_rule(size, rounds, seed, units, withdrawal_rate):
    rng = random.Random(seed)
    event = SimulatedEvent(size, rng, units)
    event.play(draw_first_round(event.teams(), seed))
    for _ in range(rounds - 1):
        for record in event.records.values():
            if rng.random() < withdrawal_rate:
                record.active = False
        teams = event.teams()
        try:
            result = pair_round(teams)
        except PairingError as error:
            assert error.message
            assert_truly_impossible(teams)
            return
        check_round(teams, result)
        event.play(result)


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(min_value=2, max_value=14),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_small_events_pair_until_truly_impossible(size, seed):
    """Tiny fields run out of new opponents: the error must come exactly then."""
    event = SimulatedEvent(size, random.Random(seed))
    event.play(draw_first_round(event.teams(), seed))
    for _ in range(size + 1):
        teams = event.teams()
        try:
            result = pair_round(teams)
        except PairingError:
            assert_truly_impossible(teams)
            return
        check_round(teams, result)
        event.play(result)
    raise AssertionError("a field cannot go on for more rounds than it has opponents")


@settings(max_examples=30, deadline=None)
@given(size=st.integers(min_value=2, max_value=60), seed=st.integers(min_value=0, max_value=2**32))
def test_the_same_seed_always_draws_the_same_first_round(size, seed):
    teams = SimulatedEvent(size, random.Random(0), units=3).teams()
    assert draw_first_round(teams, seed) == draw_first_round(list(reversed(teams)), seed)


@settings(max_examples=30, deadline=None)
@given(
    size=st.integers(min_value=2, max_value=120),
    rounds=st.integers(min_value=2, max_value=9),
    seed=st.integers(min_value=0, max_value=2**32),
    window=st.integers(min_value=1, max_value=4),
    largest_block=st.sampled_from([2, 6, 16]),
)
def test_small_blocks_and_windows_still_give_the_least_score_gap(
    size, rounds, seed, window, largest_block
):
    """Cutting score groups into blocks and sparse graphs must never cost score gap."""
    event = SimulatedEvent(size, random.Random(seed))
    event.play(draw_first_round(event.teams(), seed))
    for _ in range(rounds - 1):
        teams = standing_order(event.teams())[: size - size % 2]
        try:
            pairs = match_teams(teams, window=window, largest_block=largest_block)
        except PairingError:
            assert optimal_total_gap(teams) is None
            return
        assert all(b.id not in a.opponents for a, b in pairs)
        assert sum(abs(a.score - b.score) for a, b in pairs) == optimal_total_gap(teams)
        try:
            event.play(pair_round(event.teams()))
        except PairingError:  # a small field can run out of rematch-free rounds (with the bye)
            return


@given(st.lists(st.integers(min_value=0, max_value=5), max_size=80).map(sorted), st.integers(1, 20))
def test_blocks_are_even_and_cut_only_where_no_score_gap_is_forced(scores, largest):
    scores = scores[::-1][: len(scores) - len(scores) % 2]
    blocks = even_blocks(scores, 2 * largest)
    covered = [index for start, end in blocks for index in range(start, end)]
    assert covered == list(range(len(scores)))
    assert all((end - start) % 2 == 0 and end - start <= 2 * largest for start, end in blocks)
    # the blocks' bounds add up to the whole field's: no cut forces a float
    whole = score_gap_bound(scores, 0, len(scores))
    assert sum(score_gap_bound(scores, start, end) for start, end in blocks) == whole
