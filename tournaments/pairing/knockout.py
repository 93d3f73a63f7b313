"""Knockout bracket (淘汰赛), seeded 1 v N (pure: no Django).

Input: the entrants in seed order (best first, any hashable ids), and whether a
third-place match is played. Output: a `Bracket` of rounds of `BracketMatch`es; each
match names where its two sides come from: a seed (`("seed", 3)`), the winner of an
earlier match (`("winner", "R1-2")`) or its loser (`("loser", "R2-1")`, the third-place
match only).

    bracket = knockout_bracket(["A", "B", "C", "D", "E", "F"], third_place=True)
    sides = bracket.sides({"R1-2": "D", ...})  # match id -> (home, away) known so far

The bracket has the next power of two places; the places without an entrant are byes
and go to the top seeds (a bye match has `away` None: its entrant goes through). Seeds
are placed so that 1 and 2 can meet only in the final, 1-4 only in the semi-finals,
and so on (1 v 8, 4 v 5, 2 v 7, 3 v 6 in an 8-place round). Round names are message
keys: "knockout.final", "knockout.semi_final", "knockout.quarter_final",
"knockout.round_of" (with `size`), "knockout.third_place".

A knockout match must produce a winner; the rules engine decides it (an extra deal at
equal levels, per preset), `sides` only needs each match's winner.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

Source = tuple[str, object]  # ("seed", n) | ("winner", match id) | ("loser", match id)


class BracketError(ValueError):
    """Bad input for a bracket; the message names what is wrong."""


@dataclass(frozen=True)
class BracketMatch:
    id: str  # "R<round>-<match>", the third-place match "3P"
    round: int
    home: Source
    away: Source | None  # None: a bye (the home side goes through)

    @property
    def is_bye(self) -> bool:
        return self.away is None


@dataclass(frozen=True)
class BracketRound:
    number: int
    name: str  # a message key, see the module docstring
    size: int  # places in this round
    matches: list[BracketMatch] = field(default_factory=list)


@dataclass(frozen=True)
class Bracket:
    entrants: tuple
    rounds: list[BracketRound]
    third_place: BracketMatch | None = None

    def matches(self) -> list[BracketMatch]:
        found = [match for rnd in self.rounds for match in rnd.matches]
        return found + ([self.third_place] if self.third_place else [])

    def sides(self, winners: Mapping[str, Hashable]) -> dict[str, tuple]:
        """Each match's (home, away) entrants as far as `winners` (match id -> entrant)
        tell; a side not yet known is None, a bye's away side is None. Byes go
        through without a result."""
        known: dict[str, tuple] = {}
        decided: dict[str, Hashable] = dict(winners)

        def entrant(source):
            kind, value = source
            if kind == "seed":
                return self.entrants[value - 1]
            if kind == "winner":
                return decided.get(value)
            home, away = known.get(value, (None, None))
            winner = decided.get(value)
            if winner is None or home is None or away is None:
                return None
            return away if winner == home else home

        for match in self.matches():
            home = entrant(match.home)
            away = None if match.away is None else entrant(match.away)
            known[match.id] = (home, away)
            if match.is_bye and home is not None:
                decided[match.id] = home
            elif match.id in decided and decided[match.id] not in (home, away):
                raise BracketError(
                    f"match {match.id}: the winner {decided[match.id]!r} does not play in it"
                )
        return known


def seed_from_sections(rankings: Sequence[Sequence[Hashable]], top: int) -> list[Hashable]:
    """Seed order for a final fed by several sections (or qualifying stations): the top
    `top` of each ranking, interleaved by place (every section's 1st in section order,
    then every 2nd ...). With two sections of 8: A1 B1 A2 B2 ... so that 1 v 16 is
    A1 v B8 and teams of one section meet as late as the seeding allows."""
    if top < 1:
        raise BracketError(f"top must be 1 or more, got {top!r}")
    short = [index for index, ranking in enumerate(rankings) if len(ranking) < top]
    if short:
        raise BracketError(f"section {short[0] + 1} has fewer than {top} ranked entrants")
    return [ranking[place] for place in range(top) for ranking in rankings]


def seed_positions(size: int) -> list[int]:
    """Seed numbers in bracket order for `size` (a power of two) places: 1 v size first."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def round_name(size: int) -> str:
    return {2: "knockout.final", 4: "knockout.semi_final", 8: "knockout.quarter_final"}.get(
        size, "knockout.round_of"
    )


def knockout_bracket(entrants: Sequence[Hashable], third_place: bool = False) -> Bracket:
    """The whole bracket for `entrants` in seed order (see the module docstring)."""
    entrants = tuple(entrants)
    if len(entrants) < 2:
        raise BracketError(f"a knockout needs at least two entrants, got {len(entrants)}")
    if len(set(entrants)) != len(entrants):
        raise BracketError("an entrant is listed twice")
    places = 1
    while places < len(entrants):
        places *= 2
    order = seed_positions(places)
    rounds: list[BracketRound] = []
    first = []
    for index in range(places // 2):
        top, bottom = order[2 * index], order[2 * index + 1]
        home: Source = ("seed", top)
        away: Source | None = ("seed", bottom) if bottom <= len(entrants) else None
        first.append(BracketMatch(f"R1-{index + 1}", 1, home, away))
    rounds.append(BracketRound(1, round_name(places), places, first))
    size = places // 2
    while size >= 2:
        number = len(rounds) + 1
        previous = rounds[-1].matches
        matches = [
            BracketMatch(
                f"R{number}-{index + 1}",
                number,
                ("winner", previous[2 * index].id),
                ("winner", previous[2 * index + 1].id),
            )
            for index in range(size // 2)
        ]
        rounds.append(BracketRound(number, round_name(size), size, matches))
        size //= 2
    third = None
    if third_place and len(rounds) >= 2:
        semis = rounds[-2].matches
        third = BracketMatch("3P", len(rounds), ("loser", semis[0].id), ("loser", semis[1].id))
    return Bracket(entrants, rounds, third)


def knockout_groups(bracket: Bracket, winners: Mapping[str, Hashable]) -> list[list[Hashable]]:
    """Finishing groups of a knockout, best first: the final's winner, its loser, the
    third-place match's winner and loser (or both semi-final losers, sharing), then the
    losers of each earlier round, later rounds first; teams still in play above everyone
    out. Inside a group the seed order (the earlier stage's ranking) decides. The stage's
    ranking (tournaments/standings/stages.py) is made from these groups."""
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
