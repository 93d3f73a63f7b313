"""Rounds 2..n: Swiss pairing by score (SPEC section 2), never stuck.

The cheapest pairing (see matching.py) is taken when it keeps the rounds still
scheduled after it pairable without a rematch; otherwise the cheapest one that does
(see lookahead.py). When no pairing without a rematch exists at all, the least-bad
one is proposed: fewest rematches (a second bye counts as one), then the usual
costs, its tables flagged "rematch" for the organiser to confirm before publishing.
"""

from __future__ import annotations

from .core import (
    Note,
    PairingError,
    PairingResult,
    PairingTeam,
    standing_order,
    validate_teams,
)
from .lookahead import (
    BIG_CANDIDATES,
    EXHAUSTIVE_LIMIT,
    SMALL_CANDIDATES,
    Graph,
    Search,
    has_perfect_matching,
    lexicographic_costs,
    next_round_pairable,
    ranked_matchings,
    rounds_possible,
)
from .matching import DEFAULT_WINDOW, match_teams, score_steps
from .sides import assign_sides
from .tables import number_tables

MURTY_LIMIT = 64  # ranked alternatives are searched in fields up to this size
Pairs = list[tuple[PairingTeam, PairingTeam]]


def pair_round(
    teams,
    avoid_same_unit: bool = True,
    window: int = DEFAULT_WINDOW,
    rounds_after: int = 0,
) -> PairingResult:
    """Pair one round after round 1.

    Teams are ordered by score, then standings rank. With an odd number of active
    teams, the lowest-placed team that has not had a bye gets it (passing over a
    team only when the others could then not be paired). The rest are paired by a
    minimum-cost matching (see matching.py): no rematch, big score gaps weighed
    first, same-unit meetings avoided where the scores allow, 1v2, 3v4.
    `rounds_after` is the number of rounds still scheduled after this one: the
    pairing keeps them pairable without a rematch whenever that is possible.
    Raises PairingError only for bad input or fewer than two active teams.
    """
    ordered = standing_order(validate_teams(teams))
    if len(ordered) < 2:
        raise PairingError(
            f"{len(ordered)} active team(s): at least two are needed to pair a round",
            {"teams": [team.id for team in ordered], "count": len(ordered)},
            key="pairing.error.too_few",
        )
    try:
        bye, pairs, notes = cheapest(ordered, avoid_same_unit, window)
    except PairingError as error:
        return least_bad(ordered, avoid_same_unit, error)
    if rounds_after > 0:
        bye, pairs, lookahead_notes = look_ahead(ordered, bye, pairs, rounds_after, avoid_same_unit)
        if lookahead_notes:
            notes = [
                *(bye_note(ordered, bye) if bye is not None else []),
                *lookahead_notes,
            ]
    return finish(ordered, bye, pairs, notes)


def finish(ordered, bye, pairs, notes, rematches=(), repeated_bye=False) -> PairingResult:
    rest = [team for team in ordered if team.id != bye]
    place = {team.id: index for index, team in enumerate(rest)}
    pairings, table_notes = number_tables(pairs, place, assign_sides, ordered, rematches)
    return PairingResult(
        pairings,
        bye=bye,
        explanation=notes + table_notes,
        rematches=len(rematches) + repeated_bye,
        repeated_bye=repeated_bye,
    )


def cheapest(ordered, avoid_same_unit, window) -> tuple[int | None, Pairs, list[Note]]:
    if len(ordered) % 2:
        return choose_bye(ordered, avoid_same_unit, window)
    return None, match_teams(ordered, avoid_same_unit, window), []


def bye_note(ordered, bye) -> list[Note]:
    """The bye went to the lowest-placed team without one, or passed over some."""
    position = next(index for index, team in enumerate(ordered) if team.id == bye)
    skipped = [team.id for team in reversed(ordered[position + 1 :]) if not team.had_bye]
    if skipped:
        return [Note("pairing.note.bye_skipped", {"team": bye, "teams": skipped})]
    return [Note("pairing.note.bye", {"team": bye})]


def choose_bye(
    ordered: list[PairingTeam], avoid_same_unit: bool, window: int
) -> tuple[int, Pairs, list[Note]]:
    """Pick the bye: the lowest-placed team without one that leaves a pairable field.

    Returns the bye's id, the other teams' pairs and a note for the organiser.
    """
    candidates = [team for team in reversed(ordered) if not team.had_bye]
    if not candidates:
        raise PairingError(
            f"odd number of active teams ({len(ordered)}) and every one of them "
            "has already had a bye",
            {"teams": [team.id for team in ordered]},
            key="pairing.error.no_bye_left",
        )
    last_error = None
    for candidate in candidates:
        rest = [team for team in ordered if team.id != candidate.id]
        try:
            pairs = match_teams(rest, avoid_same_unit, window)
        except PairingError as error:
            last_error = error
            continue
        return candidate.id, pairs, bye_note(ordered, candidate.id)
    raise PairingError(
        "no team can take the bye without forcing a rematch among the others; "
        f"with the lowest-placed candidate out: {last_error.message}",
        {"teams": [team.id for team in candidates], "cause": last_error.details},
        key="pairing.error.no_rematch_free",
    )


# --- the completion rule ------------------------------------------------------------------


def cost_vectors(ordered, avoid_same_unit, graph: Graph, rematches_allowed=False) -> dict:
    """Each possible table's cost parts, most important first: (rematch, bye place,
    squared score gap, score gap, same unit, squared distance in standings order)."""
    scores = score_steps(ordered)
    vectors = {}
    without_bye = [i for i in reversed(range(len(ordered))) if not ordered[i].had_bye]
    with_bye = [i for i in reversed(range(len(ordered))) if ordered[i].had_bye]
    bye_place = {i: place for place, i in enumerate(without_bye + with_bye)}
    for i in range(len(ordered)):
        for j in range(i + 1, graph.size):
            if j == graph.bye_node:
                met = ordered[i].had_bye
                vector = (int(met), bye_place[i], 0, 0, 0, 0)
            else:
                met = ordered[j].id in ordered[i].opponents
                gap = scores[i] - scores[j]
                unit = ordered[i].unit
                same = avoid_same_unit and unit is not None and unit == ordered[j].unit
                vector = (int(met), 0, gap * gap, gap, int(same), (j - i) ** 2)
            if met and not rematches_allowed:
                continue
            vectors[(i, j)] = vector
    return vectors


def as_pairs(ordered, graph: Graph, matching) -> tuple[int | None, Pairs]:
    bye = None
    pairs = []
    for a, b in matching:
        if b == graph.bye_node:
            bye = ordered[a].id
        else:
            pairs.append((ordered[a], ordered[b]))
    return bye, pairs


def as_matching(ordered, graph: Graph, bye, pairs) -> list[tuple[int, int]]:
    index = {team.id: position for position, team in enumerate(ordered)}
    matching = [tuple(sorted((index[a.id], index[b.id]))) for a, b in pairs]
    if bye is not None:
        matching.append((index[bye], graph.bye_node))
    return matching


def look_ahead(ordered, bye, pairs, rounds_after, avoid_same_unit):
    """Keep `rounds_after` more rounds pairable; returns (bye, pairs, notes).

    Notes are empty when the cheapest pairing already keeps the schedule completable.
    """
    exhaustive = len(ordered) <= EXHAUSTIVE_LIMIT
    if not exhaustive and next_round_pairable(ordered, pairs, bye):
        return bye, pairs, []  # the common case in a big field, without building the graph
    graph = Graph.of(ordered)
    search = Search()
    ahead = rounds_possible(graph, rounds_after + 1, search) - 1 if exhaustive else 1
    if ahead <= 0:
        return bye, pairs, []

    def completable(matching) -> bool | None:
        if exhaustive:
            return search.decomposable(graph.without(matching), ahead)
        return has_perfect_matching(graph.without(matching))

    notes = []
    if ahead < rounds_after:
        notes.append(Note("pairing.note.schedule_short", {"rounds": ahead, "wanted": rounds_after}))
    if exhaustive and completable(as_matching(ordered, graph, bye, pairs)):
        return bye, pairs, notes
    limit = SMALL_CANDIDATES if exhaustive else BIG_CANDIDATES
    if len(ordered) <= MURTY_LIMIT:
        costs = lexicographic_costs(cost_vectors(ordered, avoid_same_unit, graph), graph.size // 2)
        for tried, (_, matching) in enumerate(ranked_matchings(graph.size, costs)):
            if tried >= limit or search.budget <= 0:
                break
            if completable(matching):
                new_bye, new_pairs = as_pairs(ordered, graph, matching)
                notes.append(Note("pairing.note.lookahead", {"rounds": ahead, "tried": tried + 1}))
                return new_bye, new_pairs, notes
    witness = Search().witness(graph.allowed, ahead + 1)
    if witness:
        new_bye, new_pairs = as_pairs(ordered, graph, witness[0])
        notes.append(Note("pairing.note.lookahead_direct", {"rounds": ahead}))
        return new_bye, new_pairs, notes
    notes.append(Note("pairing.note.lookahead_gave_up", {"rounds": ahead}))
    return bye, pairs, notes


def least_bad(ordered, avoid_same_unit, error: PairingError) -> PairingResult:
    """No pairing without a rematch exists: fewest rematches, then the usual costs."""
    graph = Graph.of(ordered)
    vectors = cost_vectors(ordered, avoid_same_unit, graph, rematches_allowed=True)
    costs = lexicographic_costs(vectors, graph.size // 2)
    _, matching = next(ranked_matchings(graph.size, costs))
    bye, pairs = as_pairs(ordered, graph, matching)
    rematches = [frozenset((a.id, b.id)) for a, b in pairs if b.id in a.opponents]
    repeated_bye = bye is not None and next(t for t in ordered if t.id == bye).had_bye
    notes = [
        Note(
            "pairing.note.least_bad",
            {"rematches": len(rematches) + repeated_bye, "teams": error.details.get("teams", [])},
        )
    ]
    if bye is not None:
        notes.append(
            Note("pairing.note.second_bye", {"team": bye})
            if repeated_bye
            else bye_note(ordered, bye)[0]
        )
    return finish(ordered, bye, pairs, notes, rematches, repeated_bye)
