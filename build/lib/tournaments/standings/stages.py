"""Rankings of stages and sections, and the event's final ranking (pure: no Django).

- :func:`rerank`: a section's rows out of standings computed over more teams, with their
  places numbered again (teams still tied keep sharing);
- :func:`knockout_groups`: a knockout's finishing order: the final's winner, its loser, the
  third-place match's winner and loser (or both semi-final losers, sharing), then the
  losers of each earlier round, later rounds first; teams still in play above everyone out.
  Inside a group the seed order (the earlier stage's ranking) decides;
- :func:`interleave`: one ranking of several sections, place by place (A1 B1 A2 B2 …);
- :func:`final_ranking`: the event's ranking follows the stages: the last stage's order
  first, then the teams that went no further, by the ranking of the stage they left.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace

from tournaments.pairing.knockout import Bracket

from .core import StandingRow


def rerank(rows: Sequence[StandingRow], keep: set) -> list[StandingRow]:
    """The rows of the teams in ``keep``, in their order, ranked 1..n again."""
    kept = [row for row in rows if row.team in keep]
    out: list[StandingRow] = []
    for index, row in enumerate(kept):
        previous = kept[index - 1] if index else None
        tied = previous is not None and previous.rank == row.rank and row.shared
        rank = out[-1].rank if tied else index + 1
        out.append(replace(row, rank=rank))
    return [
        replace(row, shared=sum(1 for other in out if other.rank == row.rank) > 1) for row in out
    ]


def knockout_groups(bracket: Bracket, winners: Mapping[str, Hashable]) -> list[list[Hashable]]:
    """Finishing groups of a knockout, best first (see the module docstring)."""
    sides = bracket.sides(winners)
    decided = dict(winners)
    for match in bracket.matches():
        if match.is_bye and sides[match.id][0] is not None:
            decided[match.id] = sides[match.id][0]
    seed = {team: index for index, team in enumerate(bracket.entrants)}
    last = len(bracket.rounds)
    # depth: 0 in play or champion, 1 final loser, 2/3 third-place winner/loser (or 2 both
    # semi-final losers without that match), then 10 + (last - round) for earlier losers
    depth: dict[Hashable, int] = {team: 0 for team in bracket.entrants}

    def loser(match_id):
        home, away = sides[match_id]
        winner = decided.get(match_id)
        if winner is None or home is None or away is None:
            return None
        return away if winner == home else home

    for rnd in bracket.rounds:
        for match in rnd.matches:
            out = loser(match.id)
            if out is None:
                continue
            if rnd.number == last:
                depth[out] = 1
            elif rnd.number == last - 1:
                depth[out] = 2
            else:
                depth[out] = 10 + last - rnd.number
    third = bracket.third_place
    if third is not None:
        out = loser(third.id)
        if out is not None:
            depth[out] = 3
    groups: dict[int, list] = {}
    for team in bracket.entrants:
        groups.setdefault(depth[team], []).append(team)
    return [sorted(groups[key], key=seed.__getitem__) for key in sorted(groups)]


def interleave(rankings: Sequence[Sequence[Hashable]]) -> list[Hashable]:
    """Place by place across the rankings: every 1st in ranking order, then every 2nd …"""
    longest = max((len(ranking) for ranking in rankings), default=0)
    return [ranking[p] for p in range(longest) for ranking in rankings if p < len(ranking)]


@dataclass(frozen=True)
class FinalPlace:
    team: Hashable
    rank: int
    stage: Hashable  # the stage whose ranking placed the team (the furthest it went)
    shared: bool = False


def final_ranking(
    stages: Sequence[tuple[Hashable, Sequence[Sequence[Hashable]]]],
) -> list[FinalPlace]:
    """The event's ranking from each stage's finishing groups (``(stage, groups)`` in stage
    order, groups best first): the last stage's teams first, then, stage by stage backwards,
    the teams not placed yet. Teams of one group share a place."""
    placed: set = set()
    rows: list[FinalPlace] = []
    for stage, groups in reversed(list(stages)):
        for group in groups:
            new = [team for team in group if team not in placed]
            rank = len(rows) + 1
            for team in new:
                rows.append(FinalPlace(team, rank, stage, shared=len(new) > 1))
                placed.add(team)
    return rows
