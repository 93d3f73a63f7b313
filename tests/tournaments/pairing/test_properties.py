"""Properties of whole simulated events: random sizes, rounds, scales and results.

Never stuck (SPEC section 2): up to 16 teams the look-ahead is exhaustive, so an
event of n-1 rounds (a round robin shows that a schedule exists from the start)
is paired without a rematch in every round; bigger fields keep the next round
pairable. A rematch appears only when no pairing without one exists, and is then
flagged for the organiser to confirm. Big score gaps weigh first: the total of
squared score gaps is an exact optimum among the pairings that keep the schedule
completable.
"""

import itertools
import random
from functools import lru_cache

import networkx
import rustworkx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    FLAG_HOME_TWICE,
    FLAG_REMATCH,
    draw_first_round,
    pair_round,
)
from tournaments.pairing.core import standing_order
from tournaments.pairing.matching import even_blocks, match_teams, score_gap_bound
from tournaments.pairing.simulation import SCALES, SimulatedEvent

SCALE = st.sampled_from(sorted(SCALES))
BYE = "bye"
NETWORKX_LIMIT = 40  # networkx (pure Python) checks fields up to this size


def nodes_of(teams):
    """Team ids, plus the bye node for an odd field."""
    ids = [team.id for team in teams]
    return ids + [BYE] if len(ids) % 2 else ids


def allowed_pairs(teams):
    """Pairs that are no rematch: unplayed pairs, and the bye for teams without one."""
    pairs = {
        frozenset((a.id, b.id))
        for a, b in itertools.combinations(teams, 2)
        if b.id not in a.opponents
    }
    if len(teams) % 2:
        pairs |= {frozenset((team.id, BYE)) for team in teams if not team.had_bye}
    return frozenset(pairs)


def matchings(nodes, allowed):
    """Every perfect matching of `nodes` over `allowed` pairs (naive reference)."""
    if not nodes:
        yield ()
        return
    first, rest = nodes[0], nodes[1:]
    for other in rest:
        if frozenset((first, other)) in allowed:
            left = tuple(node for node in rest if node != other)
            for tail in matchings(left, allowed):
                yield (frozenset((first, other)), *tail)


@lru_cache(maxsize=200_000)
def schedulable(nodes, allowed, rounds):
    """Can `rounds` more rounds be paired without a rematch? (naive, memoised)"""
    if rounds == 0:
        return True
    return any(
        schedulable(nodes, allowed - frozenset(matching), rounds - 1)
        for matching in matchings(nodes, allowed)
    )


def max_weight_matching(nodes, weighted_edges):
    """networkx (the pure-Python reference) for small fields, rustworkx for big ones."""
    if len(nodes) <= NETWORKX_LIMIT:
        graph = networkx.Graph()
        graph.add_nodes_from(nodes)
        graph.add_weighted_edges_from(weighted_edges)
        return networkx.max_weight_matching(graph, maxcardinality=True)
    graph = rustworkx.PyGraph()
    index = {node: graph.add_node(node) for node in nodes}
    graph.add_edges_from([(index[a], index[b], weight) for a, b, weight in weighted_edges])
    found = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return {(graph[a], graph[b]) for a, b in found}


def has_perfect_matching(nodes, allowed):
    edges = [(*tuple(pair), 1) for pair in allowed]
    return 2 * len(max_weight_matching(nodes, edges)) == len(nodes)


def round_pairs(result):
    pairs = {frozenset((p.home, p.away)) for p in result.pairings}
    if result.bye is not None:
        pairs.add(frozenset((result.bye, BYE)))
    return frozenset(pairs)


def squared_gaps(teams, pairs):
    score = {team.id: team.score for team in teams}
    return sum(
        (score[a] - score[b]) ** 2 for a, b in (tuple(pair) for pair in pairs if BYE not in pair)
    )


def networkx_least_squares(teams):
    """The least total of squared score gaps of any rematch-free pairing of `teams`."""
    edges = [
        (a.id, b.id, -((a.score - b.score) ** 2))
        for a, b in itertools.combinations(teams, 2)
        if b.id not in a.opponents
    ]
    ceiling = 1 - min((weight for _, _, weight in edges), default=0)
    edges = [(a, b, ceiling + weight) for a, b, weight in edges]
    matching = max_weight_matching([team.id for team in teams], edges)
    if 2 * len(matching) != len(teams):
        return None, None
    return squared_gaps(teams, map(frozenset, matching)), frozenset(map(frozenset, matching))


def check_round(teams, result, rounds_after):
    by_id = {team.id: team for team in teams}
    active = [team for team in standing_order(teams) if team.active]
    seated = [t for pairing in result.pairings for t in (pairing.home, pairing.away)]
    # every active team exactly once, nobody else
    bye = [result.bye] if result.bye is not None else []
    assert sorted(seated + bye) == sorted(team.id for team in active)
    assert (result.bye is not None) == (len(active) % 2 == 1)
    nodes, allowed = tuple(nodes_of(active)), allowed_pairs(active)
    chosen = round_pairs(result)
    # never a rematch unless flagged, counted and truly unavoidable
    repeats = chosen - allowed
    assert result.rematches == len(repeats)
    for pairing in result.pairings:
        rematch = pairing.away in by_id[pairing.home].opponents
        assert rematch == (FLAG_REMATCH in pairing.flags)
    if repeats:
        assert result.needs_confirmation
        assert not has_perfect_matching(nodes, allowed)
        # the fewest rematches: every table beyond a largest rematch-free matching
        largest = len(max_weight_matching(nodes, [(*tuple(pair), 1) for pair in allowed]))
        assert len(repeats) == len(nodes) // 2 - largest
        return
    # no third home in a row unless both teams were on a home streak
    for pairing in result.pairings:
        home, away = by_id[pairing.home], by_id[pairing.away]
        if home.recent_sides[-2:] == ("H", "H"):
            assert FLAG_HOME_TWICE in pairing.flags
            assert away.recent_sides[-2:] == ("H", "H")
    rest = allowed - chosen
    if rounds_after and len(active) > 16:
        # a big field: the next round stays pairable
        assert has_perfect_matching(nodes, rest)
    # squared score gaps: the networkx optimum (same bye) whenever it keeps the
    # schedule going (without a look-ahead, always)
    seated_teams = [by_id[team_id] for team_id in seated]
    best, best_pairs = networkx_least_squares(seated_teams)
    ours = squared_gaps(teams, chosen)
    assert ours >= best
    bye_pair = {pair for pair in chosen if BYE in pair}
    if rounds_after == 0:
        assert ours == best
    elif len(active) > 16 and has_perfect_matching(nodes, allowed - best_pairs - bye_pair):
        assert ours == best


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.integers(min_value=6, max_value=200),
    rounds=st.integers(min_value=4, max_value=9),
    seed=st.integers(min_value=0, max_value=2**32),
    units=st.sampled_from([None, 2, 5, 30]),
    withdrawal_rate=st.sampled_from([0.0, 0.0, 0.03, 0.1]),
    late_entries=st.integers(min_value=0, max_value=3),
    scale=SCALE,
)
def test_simulated_events_keep_every_pairing_rule(
    size, rounds, seed, units, withdrawal_rate, late_entries, scale
):
    rng = random.Random(seed)
    event = SimulatedEvent(size, rng, units, scale)
    event.play(draw_first_round(event.teams(), seed))
    for number in range(2, rounds + 1):
        for record in event.records.values():
            if rng.random() < withdrawal_rate:
                record.active = False
        if number == 3:
            for _ in range(late_entries):
                event.enter()
        teams = event.teams()
        if sum(team.active for team in teams) < 2:
            return
        result = pair_round(teams, rounds_after=rounds - number)
        check_round(teams, result, rounds - number)
        event.play(result)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.integers(min_value=6, max_value=16),
    seed=st.integers(min_value=0, max_value=2**32),
    scale=SCALE,
)
def test_small_fields_play_n_minus_1_rounds_without_a_rematch(size, seed, scale):
    """Exhaustive look-ahead: a round robin's worth of Swiss rounds, never a rematch."""
    rounds = size - 1
    event = SimulatedEvent(size, random.Random(seed), scale=scale)
    event.play(draw_first_round(event.teams(), seed))
    for number in range(2, rounds + 1):
        teams = event.teams()
        result = pair_round(teams, rounds_after=rounds - number)
        assert result.rematches == 0, f"round {number} of {rounds}"
        assert not any(FLAG_REMATCH in p.flags for p in result.pairings)
        event.play(result)
    # every team met every other once (even field) or all but the bye's (odd field)
    for record in event.records.values():
        assert len(record.opponents) == rounds - record.byes


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.integers(min_value=6, max_value=9),
    seed=st.integers(min_value=0, max_value=2**32),
    scale=SCALE,
    withdraw=st.booleans(),
)
def test_squared_gaps_are_least_among_pairings_that_keep_the_schedule(size, seed, scale, withdraw):
    """Brute force over every pairing of a small field: among those after which the
    remaining rounds can still be paired, ours has the least total of squared gaps
    (the bye going to the lowest-placed team that allows a completable pairing)."""
    rng = random.Random(seed)
    rounds = size - 1
    event = SimulatedEvent(size, rng, scale=scale)
    event.play(draw_first_round(event.teams(), seed))
    for number in range(2, rounds + 1):
        if withdraw and number == 3:
            event.records[rng.randint(1, size)].active = False
        teams = event.teams()
        active = [team for team in standing_order(teams) if team.active]
        nodes, allowed = tuple(nodes_of(active)), allowed_pairs(active)
        ahead = rounds - number
        while ahead and not schedulable(nodes, allowed, ahead + 1):
            ahead -= 1  # what the schedule still allows
        result = pair_round(teams, rounds_after=rounds - number)
        chosen = round_pairs(result)
        if not has_perfect_matching(nodes, allowed):
            assert result.rematches > 0
            return
        assert result.rematches == 0
        completable = [
            frozenset(m)
            for m in matchings(nodes, allowed)
            if schedulable(nodes, allowed - frozenset(m), ahead)
        ]
        assert chosen in completable
        if result.bye is not None:
            placed = [team.id for team in active]

            def bye_of(pairs):
                return next(next(iter(p - {BYE})) for p in pairs if BYE in p)

            lowest = max(placed.index(bye_of(m)) for m in completable)
            assert placed.index(result.bye) == lowest
            completable = [m for m in completable if bye_of(m) == result.bye]
        assert squared_gaps(teams, chosen) == min(squared_gaps(teams, m) for m in completable)
        event.play(result)


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
    scale=SCALE,
)
def test_small_blocks_and_windows_still_give_the_least_squared_gaps(
    size, rounds, seed, window, largest_block, scale
):
    """Cutting score groups into blocks and sparse graphs must never cost score gap."""
    event = SimulatedEvent(size, random.Random(seed), scale=scale)
    event.play(draw_first_round(event.teams(), seed))
    for _ in range(rounds - 1):
        teams = standing_order(event.teams())[: size - size % 2]
        best, _ = networkx_least_squares(teams)
        if best is None:
            return
        pairs = match_teams(teams, window=window, largest_block=largest_block)
        assert all(b.id not in a.opponents for a, b in pairs)
        assert sum((a.score - b.score) ** 2 for a, b in pairs) == best
        result = pair_round(event.teams())
        if result.rematches:
            return
        event.play(result)


@given(st.lists(st.integers(min_value=0, max_value=5), max_size=80).map(sorted), st.integers(1, 20))
def test_blocks_are_even_and_cut_only_where_no_score_gap_is_forced(scores, largest):
    scores = scores[::-1][: len(scores) - len(scores) % 2]
    blocks = even_blocks(scores, 2 * largest)
    covered = [index for start, end in blocks for index in range(start, end)]
    assert covered == list(range(len(scores)))
    assert all((end - start) % 2 == 0 and end - start <= 2 * largest for start, end in blocks)
    # the blocks' bounds add up to the whole field's: no cut forces a float
    for power in (1, 2):
        whole = score_gap_bound(scores, 0, len(scores), power)
        parts = sum(score_gap_bound(scores, start, end, power) for start, end in blocks)
        assert parts == whole


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.integers(min_value=3, max_value=10),
    seed=st.integers(min_value=0, max_value=2**32),
    scale=SCALE,
)
def test_past_the_last_rematch_free_round_the_least_bad_pairing_is_proposed(size, seed, scale):
    """More rounds than opponents: the pairing never fails, it proposes the fewest
    rematches (a second bye counts as one), flagged for the organiser to confirm."""
    event = SimulatedEvent(size, random.Random(seed), scale=scale)
    event.play(draw_first_round(event.teams(), seed))
    rounds = size + 2
    confirmations = 0
    for number in range(2, rounds + 1):
        teams = event.teams()
        result = pair_round(teams, rounds_after=rounds - number)
        check_round(teams, result, rounds - number)
        confirmations += result.needs_confirmation
        event.play(result)
    assert confirmations >= 2  # rounds n+1 and n+2 cannot be rematch-free
