"""Minimum-cost perfect matching of teams in standings order, block by block.

The cost of a pairing, most important first:
1. the squared score gap between the two teams: big gaps weigh first, so two
   one-group floats beat one two-group float (6v5 and 5v4 rather than 6v4 and 5v5)
   and one team never floats three groups where two could float one each,
2. the score gap itself (of equal squares, the fewer floats),
3. both teams from the same unit (a soft preference),
4. the squared distance of the two teams in standings order (1v2, 3v4 ...).
Each level outweighs every possible total of the levels below it, so the solver
never trades a larger score gap for a nicer lower-level cost. Rematches are not
edges at all.

Speed: the field is cut into blocks, the smallest runs of whole score groups with an
even number of teams, long runs cut again every MAX_BLOCK teams. A perfect matching
whose total score gap equals a block's lower bound (the score distance that parity
forces to float: the sum of the squared gaps at the group boundaries with an odd
number of teams above them) is optimal on its own, so blocks are solved separately with a
rustworkx maximum-weight matching on a sparse graph (each team linked to its `window`
nearest possible opponents below it). A block that cannot reach its bound, even on a
wider graph, is merged with the block below it (the last block with the one above)
and solved again; in the end the whole field is one block solved on the complete
graph, so the answer is exact whenever the bounds are met, and a field with no
perfect matching is reported, not guessed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import rustworkx

from .core import PairingTeam
from .explain import impossible_pairing_error

DEFAULT_WINDOW = 8
COMPLETE_GRAPH_LIMIT = 64  # blocks this small are always solved on the complete graph
MAX_BLOCK = 256  # longer runs of score groups are cut into blocks of this many teams


@dataclass
class BlockSolution:
    pairs: list[tuple[int, int]]  # indexes into the standings order, upper team first
    score_gap: int  # the sum of squared score gaps
    same_unit: int

    def is_perfect(self, size: int) -> bool:
        return 2 * len(self.pairs) == size


def score_steps(teams: list[PairingTeam]) -> list[int]:
    """Scores as small integers keeping their differences in proportion.

    Scores are taken in thousandths when any has a fraction, then divided by the
    greatest common divisor of their distances from the lowest score.
    """
    scale = 1 if all(float(team.score).is_integer() for team in teams) else 1000
    scaled = [round(team.score * scale) for team in teams]
    lowest = min(scaled, default=0)
    step = math.gcd(*(score - lowest for score in scaled)) or 1
    return [(score - lowest) // step for score in scaled]


def even_blocks(scores: list[int], largest: int = MAX_BLOCK) -> list[tuple[int, int]]:
    """Split the standings order into blocks of even size that can be solved apart.

    First the smallest runs of whole score groups with an even number of teams; a run
    longer than `largest` is then cut every `largest` teams. Such a cut falls inside a
    score group (every group boundary inside a smallest run has an odd count above it),
    so it adds nothing to the score-gap bound.
    """
    return [
        (begin, min(begin + largest, end))
        for start, end in group_runs(scores)
        for begin in range(start, end, largest)
    ]


def group_runs(scores: list[int]) -> list[tuple[int, int]]:
    """The smallest runs of whole score groups with an even number of teams."""
    blocks: list[tuple[int, int]] = []
    start = index = 0
    while index < len(scores):
        end = index
        while end < len(scores) and scores[end] == scores[index]:
            end += 1
        if (end - start) % 2 == 0:
            blocks.append((start, end))
            start = end
        index = end
    if start != len(scores):
        blocks.append((start, len(scores)))
    return blocks


def score_gap_bound(scores: list[int], start: int, end: int, power: int = 2) -> int:
    """The least total of score gaps (squared by default) any perfect matching of
    scores[start:end] can have.

    Every boundary with an odd number of teams above it is crossed by at least one
    table; a table crossing several boundaries costs at least the sum of their squares.
    """
    bound = 0
    for position in range(start + 1, end):
        if (position - start) % 2 == 1:  # an odd number of teams above this boundary
            bound += (scores[position - 1] - scores[position]) ** power
    return bound


class Matcher:
    def __init__(
        self,
        teams: list[PairingTeam],
        avoid_same_unit: bool,
        window: int,
        largest_block: int = MAX_BLOCK,
    ):
        self.teams = teams
        self.largest_block = largest_block + largest_block % 2
        self.scores = score_steps(teams)
        self.avoid_same_unit = avoid_same_unit
        self.window = max(1, window)

    def same_unit(self, i: int, j: int) -> bool:
        unit = self.teams[i].unit
        return self.avoid_same_unit and unit is not None and unit == self.teams[j].unit

    def edges(self, start: int, end: int, window: int | None) -> list[tuple[int, int]]:
        teams = self.teams
        edges = []
        for i in range(start, end):
            met = teams[i].opponents
            found = 0
            for j in range(i + 1, end):
                if teams[j].id in met:
                    continue
                edges.append((i, j))
                found += 1
                if found == window:
                    break
        return edges

    def solve_block(self, start: int, end: int, window: int | None) -> BlockSolution:
        edges = self.edges(start, end, window)
        if not edges:
            return BlockSolution([], 0, 0)
        scores = self.scores
        pairs_needed = (end - start) // 2
        rank_cost = max((j - i) ** 2 for i, j in edges)
        largest_gap = scores[start] - scores[end - 1]
        unit_weight = pairs_needed * rank_cost + 1
        gap_weight = pairs_needed * (unit_weight + rank_cost) + 1
        square_weight = pairs_needed * (largest_gap * gap_weight + unit_weight + rank_cost) + 1
        costs = []
        for i, j in edges:
            gap = scores[i] - scores[j]
            costs.append(
                gap * gap * square_weight
                + gap * gap_weight
                + (unit_weight if self.same_unit(i, j) else 0)
                + (j - i) ** 2
            )
        ceiling = max(costs) + 1
        graph = rustworkx.PyGraph()
        graph.add_nodes_from(range(start, end))
        graph.add_edges_from(
            [
                (i - start, j - start, ceiling - cost)
                for (i, j), cost in zip(edges, costs, strict=True)
            ]
        )
        matched = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
        pairs = sorted((min(a, b) + start, max(a, b) + start) for a, b in matched)
        return BlockSolution(
            pairs,
            score_gap=sum((scores[i] - scores[j]) ** 2 for i, j in pairs),
            same_unit=sum(self.same_unit(i, j) for i, j in pairs),
        )

    def windows(self, size: int, whole_field: bool) -> list[int | None]:
        if size <= COMPLETE_GRAPH_LIMIT or size <= 2 * self.window + 2:
            return [None]
        if whole_field:
            return [self.window, 4 * self.window, None]
        return [self.window, 4 * self.window]

    def best_for_block(self, start: int, end: int) -> BlockSolution:
        """Solve one block, widening the graph while the result can still improve."""
        bound = score_gap_bound(self.scores, start, end)
        whole_field = start == 0 and end == len(self.teams)
        best = None
        for window in self.windows(end - start, whole_field):
            if window is None and best is not None and end - start > COMPLETE_GRAPH_LIMIT:
                break  # the complete graph of a big field is only needed to prove impossibility
            solution = self.solve_block(start, end, window)
            if solution.is_perfect(end - start) and (
                best is None
                or (solution.score_gap, solution.same_unit) < (best.score_gap, best.same_unit)
            ):
                best = solution
            if best is not None and best.score_gap == bound and best.same_unit == 0:
                break
        return best if best is not None else solution

    def solve(self) -> list[tuple[int, int]]:
        blocks = even_blocks(self.scores, self.largest_block)
        accepted: list[tuple[tuple[int, int], BlockSolution]] = []
        index = 0
        while index < len(blocks):
            start, end = blocks[index]
            solution = self.best_for_block(start, end)
            bound = score_gap_bound(self.scores, start, end)
            if solution.is_perfect(end - start) and solution.score_gap == bound:
                accepted.append(((start, end), solution))
                index += 1
            elif index + 1 < len(blocks):
                blocks[index : index + 2] = [(start, blocks[index + 1][1])]
            elif accepted:
                (previous_start, _), _ = accepted.pop()
                index -= 1
                blocks[index : index + 2] = [(previous_start, end)]
            elif solution.is_perfect(end - start):
                accepted.append(((start, end), solution))
                index += 1
            else:
                raise impossible_pairing_error(self.teams, solution.pairs)
        return [pair for _, solution in accepted for pair in solution.pairs]


def match_teams(
    teams: list[PairingTeam],
    avoid_same_unit: bool = True,
    window: int = DEFAULT_WINDOW,
    largest_block: int = MAX_BLOCK,
) -> list[tuple[PairingTeam, PairingTeam]]:
    """Pair an even list of teams given in standings order; the upper team comes first.

    Raises PairingError when no pairing without a rematch exists.
    """
    matcher = Matcher(teams, avoid_same_unit, window, largest_block)
    return [(teams[i], teams[j]) for i, j in matcher.solve()]
