"""Where the four players of a match sit (SPEC 4.5).

The home team plays East–West (EW) and the away team North–South (NS); a team's first
player (seat order 1) sits East or South, the partner opposite (West or North).
"""

from __future__ import annotations

from rules_engine.errors import RulesError
from rules_engine.i18n import t

SEAT_ORDER = ("E", "S", "W", "N")  # how a table sheet lists the seats
_SEATS = {("EW", 1): "E", ("EW", 2): "W", ("NS", 1): "S", ("NS", 2): "N"}


def seat_of(side: str, seat_order: int) -> str:
    """The seat of a team's player: ``seat_of("NS", 2) == "N"``."""
    try:
        return _SEATS[(side, seat_order)]
    except KeyError:
        raise RulesError(
            t(
                "no seat for player {seat_order} of side {side!r} (sides EW and NS, players 1 and 2)",
                seat_order=seat_order,
                side=side,
            ),
            "seat",
        ) from None
