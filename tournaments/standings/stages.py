"""Rankings of stages and sections, and the event's final ranking (pure: no Django).

- :func:`rerank`: a section's rows out of standings computed over more teams, with their
  places numbered again (teams still tied keep sharing);
- a knockout's finishing groups come from its bracket
  (:func:`tournaments.pairing.knockout.knockout_groups`);
- :func:`interleave`: one ranking of several sections, place by place (A1 B1 A2 B2 …);
- :func:`final_ranking`: the event's ranking follows the stages: the last stage's order
  first, then the teams that went no further, by the ranking of the stage they left.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace

from rules_engine.presets import KNOCKOUT_PLACES

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


def split_by_draws(groups: Sequence[Sequence[Hashable]], draws: Sequence[Sequence[Hashable]]):
    """Finishing groups with every tie a recorded draw of lots covers split in the drawn
    order (the latest draw covering the whole group wins); other groups as they are."""
    out: list[list] = []
    for group in groups:
        order = next((d for d in reversed(draws) if len(group) > 1 and set(group) <= set(d)), None)
        if order is None:
            out.append(list(group))
        else:
            place = {team: index for index, team in enumerate(order)}
            out += [[team] for team in sorted(group, key=place.__getitem__)]
    return out


def rows_by_draws(rows: Sequence[StandingRow], draws) -> list[StandingRow]:
    """Standings rows with the ties a recorded draw of lots covers broken by it."""
    groups: list[list[StandingRow]] = []
    for row in rows:
        if groups and row.shared and groups[-1][0].rank == row.rank:
            groups[-1].append(row)
        else:
            groups.append([row])
    by_team = {row.team: row for row in rows}
    split = split_by_draws([[row.team for row in g] for g in groups], draws)
    out: list[StandingRow] = []
    for group in split:
        rank = len(out) + 1
        for team in group:
            out.append(replace(by_team[team], rank=rank, shared=len(group) > 1))
    return out


def cut_ties(
    groups: Sequence[Sequence[Hashable]], cuts: Sequence[int]
) -> list[tuple[int, int, list]]:
    """The ties that straddle a cut line: ``(first place, cut, teams)`` for every group that
    holds places on both sides of a cut (a cut ``n``: places 1..n are in, n+1.. out)."""
    found = []
    place = 0
    for group in groups:
        first, last = place + 1, place + len(group)
        for cut in sorted(cuts):
            if first <= cut < last:
                found.append((first, cut, list(group)))
                break
        place = last
    return found


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
    places: str = "shared",
    draws: Sequence[Sequence[Hashable]] = (),
) -> list[FinalPlace]:
    """The event's official ranking (the one function every page, export, API answer and
    prize list reads) from each stage's finishing groups (``(stage, groups)`` in stage
    order, groups best first): the last stage's teams first, then, stage by stage
    backwards, the teams not placed yet.

    A group holds teams the stage's matches cannot separate (the losers of one knockout
    round, or teams tied in a Swiss). ``places`` (the event setting ``knockout_places``)
    says what happens to them: ``"shared"`` they share the place; ``"earlier_stage"`` they
    are ranked by the ranking of the earlier stage they came from, and share a place only
    when they shared it there too. A place still shared that a recorded draw of lots
    covers (``draws``, e.g. at a prize band) is split in the drawn order."""
    if places not in KNOCKOUT_PLACES:
        raise ValueError(f"places must be one of {KNOCKOUT_PLACES}")
    listed = list(stages)
    placed: set = set()
    rows: list[FinalPlace] = []
    for index in range(len(listed) - 1, -1, -1):
        stage, groups = listed[index]
        earlier = [dict(_positions(g)) for _s, g in reversed(listed[:index])]
        for group in groups:
            new = [team for team in group if team not in placed]
            parts = _split(new, earlier) if places == "earlier_stage" else [new]
            for part in split_by_draws(parts, draws):
                rank = len(rows) + 1
                for team in part:
                    rows.append(FinalPlace(team, rank, stage, shared=len(part) > 1))
                    placed.add(team)
    return rows


def _positions(groups: Sequence[Sequence[Hashable]]):
    for position, group in enumerate(groups):
        for team in group:
            yield team, position


def _split(teams: list, earlier: list[dict]) -> list[list]:
    """``teams`` (one group) split by the nearest earlier stage each was ranked in; teams
    sharing a place there stay together; teams no earlier stage ranked stay together,
    after the others, in their given order."""
    if len(teams) < 2 or not earlier:
        return [teams] if teams else []

    def key(team):
        for number, positions in enumerate(earlier):
            if team in positions:
                return (0, number, positions[team])
        return (1, 0, 0)

    parts: dict[tuple, list] = {}
    for team in teams:
        parts.setdefault(key(team), []).append(team)
    return [parts[k] for k in sorted(parts)]
