"""Never stuck: a Swiss round that keeps the remaining rounds pairable (SPEC section 2).

FIDE C.04's completion rule, for paisai: a round's pairing is chosen so that the
rounds still scheduled after it can be paired without a rematch, whenever such a
schedule exists.

The field is a graph: teams are nodes, and two teams not yet met are linked. An odd
field gets one extra node, the bye, linked to the teams that have not had one: a
bye is then a table like any other, and "no second bye" is "no rematch". A round is
a perfect matching of that graph; `k` more rounds are possible after it when the
graph minus the round still holds `k` disjoint perfect matchings.

- Up to EXHAUSTIVE_LIMIT active teams the check is exhaustive: a backtracking
  search (bitmasks, fewest-options-first, symmetry broken at a vertex whose degree
  equals the rounds left, failures memoised) over every remaining round.
- Bigger fields look one round ahead: the graph of unplayed pairs must still have a
  perfect matching after this round (a greedy pass, then an exact matching).

Candidates are tried in cost order (Murty's ranking of perfect matchings by cost),
so the pairing chosen is the cheapest among those that keep the schedule
completable. The search is bounded (steps and candidates); a field that exceeds the
bounds falls back to a completable pairing found directly, never to an error.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass

import rustworkx

EXHAUSTIVE_LIMIT = 16  # active teams: look ahead over every remaining round
STEP_BUDGET = 400_000  # search steps per round for the exhaustive look-ahead
SMALL_CANDIDATES = 3_000  # ranked candidate pairings tried in a small field
BIG_CANDIDATES = 60  # ... and in a big one


class BudgetExceeded(Exception):
    pass


class Search:
    """Disjoint perfect matchings of a graph given as adjacency bitmasks."""

    def __init__(self, budget: int = STEP_BUDGET):
        self.budget = budget
        self.failed: set[tuple[int, tuple[int, ...]]] = set()

    def step(self) -> None:
        self.budget -= 1
        if self.budget < 0:
            raise BudgetExceeded

    def decomposable(self, adj: tuple[int, ...], k: int) -> bool | None:
        """Does `adj` hold `k` disjoint perfect matchings? None when the budget ran out."""
        try:
            return self._decompose(adj, k) is not None
        except BudgetExceeded:
            return None

    def witness(self, adj: tuple[int, ...], k: int) -> list[list[tuple[int, int]]] | None:
        """`k` disjoint perfect matchings of `adj`, or None (none, or budget exceeded)."""
        try:
            return self._decompose(adj, k)
        except BudgetExceeded:
            return None

    def _decompose(self, adj: tuple[int, ...], k: int) -> list[list[tuple[int, int]]] | None:
        if k == 0 or not adj:
            return []
        key = (k, adj)
        if key in self.failed:
            return None
        degrees = [mask.bit_count() for mask in adj]
        low = min(range(len(adj)), key=degrees.__getitem__)
        if degrees[low] < k:
            self.failed.add(key)
            return None
        # The k rounds use k different edges at `low`; when it has exactly k, the
        # rounds can be taken in the order of its partner: this one uses the first.
        first = adj[low] & -adj[low] if degrees[low] == k else 0
        for matching in self.perfect_matchings(adj, low, first):
            rest = list(adj)
            for a, b in matching:
                rest[a] &= ~(1 << b)
                rest[b] &= ~(1 << a)
            found = self._decompose(tuple(rest), k - 1)
            if found is not None:
                return [matching, *found]
        self.failed.add(key)
        return None

    def perfect_matchings(
        self, adj: tuple[int, ...], start: int = 0, start_partner: int = 0
    ) -> Iterator[list[tuple[int, int]]]:
        """Every perfect matching of `adj` (the vertex with the fewest options first)."""
        size = len(adj)
        full = (1 << size) - 1
        chosen: list[tuple[int, int]] = []

        def extend(free: int, forced_vertex: int = -1, forced_mask: int = 0):
            self.step()
            if not free:
                yield list(chosen)
                return
            if forced_vertex >= 0:
                vertex, options = forced_vertex, forced_mask
            else:
                vertex, options, fewest = -1, 0, size + 1
                rest = free
                while rest:
                    bit = rest & -rest
                    rest ^= bit
                    v = bit.bit_length() - 1
                    here = adj[v] & free
                    count = here.bit_count()
                    if count < fewest:
                        vertex, options, fewest = v, here, count
                        if count <= 1:
                            break
            while options:
                bit = options & -options
                options ^= bit
                partner = bit.bit_length() - 1
                chosen.append((vertex, partner))
                yield from extend(free & ~(1 << vertex) & ~bit)
                chosen.pop()

        if start_partner:
            yield from extend(full, start, start_partner)
        else:
            yield from extend(full)


@dataclass
class Graph:
    """The field as nodes 0..n-1 in standings order, plus the bye node when n is odd.

    `allowed[i]` is the bitmask of nodes node i may still meet (no rematch).
    """

    size: int  # nodes, the bye node included
    allowed: tuple[int, ...]
    bye_node: int | None

    @classmethod
    def of(cls, teams, extra_met: list[tuple[int, int]] = ()) -> Graph:
        """`teams` in standings order (PairingTeam values); `extra_met` adds meetings."""
        index = {team.id: position for position, team in enumerate(teams)}
        odd = len(teams) % 2 == 1
        size = len(teams) + odd
        bye_node = len(teams) if odd else None
        allowed = [0] * size
        for i, team in enumerate(teams):
            for j in range(i + 1, len(teams)):
                if teams[j].id not in team.opponents:
                    allowed[i] |= 1 << j
                    allowed[j] |= 1 << i
            if odd and not team.had_bye:
                allowed[i] |= 1 << bye_node
                allowed[bye_node] |= 1 << i
        for a, b in extra_met:
            i = index.get(a, bye_node) if a is not None else bye_node
            j = index.get(b, bye_node) if b is not None else bye_node
            allowed[i] &= ~(1 << j)
            allowed[j] &= ~(1 << i)
        return cls(size, tuple(allowed), bye_node)

    def without(self, pairs) -> tuple[int, ...]:
        allowed = list(self.allowed)
        for a, b in pairs:
            allowed[a] &= ~(1 << b)
            allowed[b] &= ~(1 << a)
        return tuple(allowed)


def has_perfect_matching(adj: tuple[int, ...]) -> bool:
    """Exact, for any size: a greedy pass, then rustworkx's maximum matching."""
    size = len(adj)
    free = (1 << size) - 1
    for vertex in range(size):
        if not free >> vertex & 1:
            continue
        options = adj[vertex] & free & ~(1 << vertex)
        if not options:
            break
        partner = (options & -options).bit_length() - 1
        free &= ~(1 << vertex) & ~(1 << partner)
    else:
        if not free:
            return True
    graph = rustworkx.PyGraph()
    graph.add_nodes_from(range(size))
    graph.add_edges_from_no_data([(a, b) for a in range(size) for b in bits(adj[a]) if a < b])
    return 2 * len(rustworkx.max_weight_matching(graph, max_cardinality=True)) == size


def next_round_pairable(ordered, pairs, bye) -> bool:
    """After this round (`pairs` of PairingTeam, `bye` id), does the field of `ordered`
    teams still have a pairing without a rematch? Exact; fast for big fields.

    A greedy pass in standings order, then each two teams left over are fitted in by
    exchanging partners with one table; only if that fails, a maximum matching of the
    whole graph of unplayed pairs decides.
    """
    bye_id = object()
    met = {team.id: set(team.opponents) for team in ordered}
    for a, b in pairs:
        met[a.id].add(b.id)
        met[b.id].add(a.id)
    ids = [team.id for team in ordered]
    if len(ids) % 2:
        had = {team.id for team in ordered if team.had_bye} | {bye}
        met[bye_id] = had
        for team_id in had:
            met[team_id].add(bye_id)
        ids.append(bye_id)
    partner: dict = {}
    left = []
    for position, team_id in enumerate(ids):
        if team_id in partner:
            continue
        for other in ids[position + 1 :]:
            if other not in partner and other not in met[team_id]:
                partner[team_id], partner[other] = other, team_id
                break
        else:
            left.append(team_id)
    while len(left) >= 2:
        u, v = left.pop(), left.pop()
        if v not in met[u]:
            partner[u], partner[v] = v, u
            continue
        for a in ids:
            b = partner.get(a)
            if b is None:
                continue
            if a not in met[u] and b not in met[v]:
                partner.update({u: a, a: u, v: b, b: v})
                break
        else:
            return exact_pairable(ids, met)
    return True


def exact_pairable(ids, met) -> bool:
    graph = rustworkx.PyGraph()
    index = {team_id: graph.add_node(team_id) for team_id in ids}
    graph.add_edges_from_no_data(
        [
            (index[a], index[b])
            for position, a in enumerate(ids)
            for b in ids[position + 1 :]
            if b not in met[a]
        ]
    )
    return 2 * len(rustworkx.max_weight_matching(graph, max_cardinality=True)) == len(ids)


def bits(mask: int) -> Iterator[int]:
    while mask:
        bit = mask & -mask
        mask ^= bit
        yield bit.bit_length() - 1


def rounds_possible(graph: Graph, wanted: int, search: Search) -> int:
    """The most rounds (up to `wanted`) the field can still play without a rematch.

    Exhaustive: `wanted` disjoint perfect matchings, or fewer. A search cut short by
    its budget counts as possible.
    """
    wanted = min(wanted, min((mask.bit_count() for mask in graph.allowed), default=0))
    while wanted > 0 and search.decomposable(graph.allowed, wanted) is False:
        wanted -= 1
    return wanted


def ranked_matchings(
    size: int, costs: dict[tuple[int, int], int]
) -> Iterator[tuple[int, list[tuple[int, int]]]]:
    """Perfect matchings of the graph whose edges are `costs`' keys, cheapest first.

    Murty's partition: after yielding a matching, its free pairs p1..pm spawn m
    subproblems (p1..pi-1 forced in, pi banned). Yields (total cost, sorted pairs).
    """

    def solve(forced: tuple, banned: frozenset):
        used = {node for pair in forced for node in pair}
        nodes = [node for node in range(size) if node not in used]
        position = {node: index for index, node in enumerate(nodes)}
        edges = [
            (position[a], position[b], cost)
            for (a, b), cost in costs.items()
            if a in position and b in position and (a, b) not in banned
        ]
        found: set = set()
        if edges:
            ceiling = max(cost for _, _, cost in edges) + 1
            graph = rustworkx.PyGraph()
            graph.add_nodes_from(nodes)
            graph.add_edges_from([(a, b, ceiling - cost) for a, b, cost in edges])
            found = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
        if 2 * len(found) != len(nodes):
            return None
        free = sorted(tuple(sorted((nodes[a], nodes[b]))) for a, b in found)
        total = sum(costs[pair] for pair in free) + sum(costs[pair] for pair in forced)
        return total, free

    first = solve((), frozenset())
    if first is None:
        return
    counter = 0
    queue = [(first[0], counter, first[1], (), frozenset())]
    while queue:
        cost, _, free, forced, banned = heapq.heappop(queue)
        yield cost, sorted([*free, *forced])
        for index, pair in enumerate(free):
            child_forced = (*forced, *free[:index])
            child_banned = banned | {pair}
            child = solve(child_forced, child_banned)
            if child is not None:
                counter += 1
                heapq.heappush(queue, (child[0], counter, child[1], child_forced, child_banned))


def lexicographic_costs(vectors: dict[tuple[int, int], tuple[int, ...]], pairs: int) -> dict:
    """Integer costs whose sums over `pairs` tables compare like the vectors' sums.

    Each vector lists non-negative parts, most important first.
    """
    if not vectors:
        return {}
    levels = len(next(iter(vectors.values())))
    weights = [0] * levels
    below = 0  # the most all lower parts can add over the whole matching
    for level in reversed(range(levels)):
        weights[level] = below + 1
        top = max(vector[level] for vector in vectors.values())
        below += pairs * top * weights[level]
    return {
        edge: sum(part * weight for part, weight in zip(vector, weights, strict=True))
        for edge, vector in vectors.items()
    }
