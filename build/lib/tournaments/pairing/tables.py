"""Turn matched pairs into numbered tables with flags an organiser can read."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from .core import (
    FLAG_FLOATED,
    FLAG_HOME_TWICE,
    FLAG_REMATCH,
    FLAG_SAME_UNIT,
    Note,
    Pairing,
    PairingTeam,
)

SideChooser = Callable[[PairingTeam, PairingTeam], tuple[int, int, frozenset[str]]]


def group_sizes(teams: Iterable[PairingTeam]) -> Counter:
    """How many teams share each score."""
    return Counter(team.score for team in teams)


def floats(upper: PairingTeam, lower: PairingTeam, sizes: Counter) -> bool:
    """A table is a float when it matters: the two scores differ and at least one of the
    teams left a score group it shared with others. Where every score is unique (common
    on the 20-point scale) every table joins two scores and none is flagged."""
    if upper.score == lower.score:
        return False
    return sizes[upper.score] > 1 or sizes[lower.score] > 1


def number_tables(
    pairs: list[tuple[PairingTeam, PairingTeam]],
    place: dict[int, int],
    choose_sides: SideChooser,
    field: Iterable[PairingTeam] | None = None,
    rematches: Iterable[frozenset[int]] = (),
) -> tuple[list[Pairing], list[Note]]:
    """Number tables from the top (best score, then best place) and flag each one.

    `pairs` hold (upper, lower) teams; `place` maps a team id to its position in
    the standings order (0 = top); `field` is every active team (score groups are
    counted over it; default: the paired teams); `rematches` are the pairs that met
    before (only in a least-bad pairing). Returns the pairings and one note per
    flagged table.
    """
    sizes = group_sizes(field if field is not None else [t for pair in pairs for t in pair])
    rematches = set(rematches)
    ordered = sorted(pairs, key=lambda pair: (-pair[0].score, place[pair[0].id]))
    pairings: list[Pairing] = []
    notes: list[Note] = []
    for table, (upper, lower) in enumerate(ordered, start=1):
        home, away, flags = choose_sides(upper, lower)
        flags = set(flags)
        if frozenset((upper.id, lower.id)) in rematches:
            flags.add(FLAG_REMATCH)
            notes.append(
                Note("pairing.note.rematch", {"table": table, "upper": upper.id, "lower": lower.id})
            )
        if floats(upper, lower, sizes):
            flags.add(FLAG_FLOATED)
            notes.append(
                Note(
                    "pairing.note.floated",
                    {
                        "table": table,
                        "upper": upper.id,
                        "lower": lower.id,
                        "upper_score": upper.score,
                        "lower_score": lower.score,
                        "difference": upper.score - lower.score,
                    },
                )
            )
        if upper.unit is not None and upper.unit == lower.unit:
            flags.add(FLAG_SAME_UNIT)
            notes.append(
                Note(
                    "pairing.note.same_unit",
                    {"table": table, "upper": upper.id, "lower": lower.id, "unit": upper.unit},
                )
            )
        if FLAG_HOME_TWICE in flags:
            notes.append(Note("pairing.note.home_twice", {"table": table, "team": home}))
        pairings.append(Pairing(table=table, home=home, away=away, flags=frozenset(flags)))
    return pairings, notes
