"""Turn matched pairs into numbered tables with flags an organiser can read."""

from __future__ import annotations

from collections.abc import Callable

from .core import FLAG_FLOATED, FLAG_HOME_TWICE, FLAG_SAME_UNIT, Pairing, PairingTeam

SideChooser = Callable[[PairingTeam, PairingTeam], tuple[int, int, frozenset[str]]]


def number_tables(
    pairs: list[tuple[PairingTeam, PairingTeam]],
    place: dict[int, int],
    choose_sides: SideChooser,
) -> tuple[list[Pairing], list[str]]:
    """Number tables from the top (best score, then best place) and flag each one.

    `pairs` hold (upper, lower) teams; `place` maps a team id to its position in
    the standings order (0 = top). Returns the pairings and one explanation line per
    flagged table.
    """
    ordered = sorted(pairs, key=lambda pair: (-pair[0].score, place[pair[0].id]))
    pairings: list[Pairing] = []
    notes: list[str] = []
    for table, (upper, lower) in enumerate(ordered, start=1):
        home, away, flags = choose_sides(upper, lower)
        flags = set(flags)
        if upper.score != lower.score:
            flags.add(FLAG_FLOATED)
            notes.append(
                f"table {table}: team {upper.id} ({upper.score:g} points) meets "
                f"team {lower.id} ({lower.score:g} points) across score groups"
            )
        if upper.unit is not None and upper.unit == lower.unit:
            flags.add(FLAG_SAME_UNIT)
            notes.append(
                f"table {table}: teams {upper.id} and {lower.id} are both from unit "
                f"{upper.unit!r}; no pairing as close in score kept them apart"
            )
        if FLAG_HOME_TWICE in flags:
            notes.append(
                f"table {table}: team {home} sits home a third time in a row; "
                f"both teams were home in their last two rounds"
            )
        pairings.append(Pairing(table=table, home=home, away=away, flags=frozenset(flags)))
    return pairings, notes
