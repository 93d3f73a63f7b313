"""Where the four players of a match sit (SPEC 4.5).

The home team plays East–West (EW) and the away team North–South (NS); a team's first
player (seat order 1) sits East or South, the partner opposite (West or North).

Two words, two things: *home*/*away* name a team's place in a match (pairing, standings,
forms, the models); *EW*/*NS* name the sides of the table that the engine scores a record
from. This module is the one place where one becomes the other
(tests/test_one_home.py: home_side, no_name_joins_the_two_words).
"""

from __future__ import annotations

from rules_engine.errors import RulesError
from rules_engine.i18n import t

SEAT_ORDER = ("E", "S", "W", "N")  # how a table sheet lists the seats
_SEATS = {("EW", 1): "E", ("EW", 2): "W", ("NS", 1): "S", ("NS", 2): "N"}

# The one statement of which side the home team plays (tests/test_one_home.py): every
# module asks side_of / by_side / is_home instead of writing "EW" beside ``home``.
_HOME_SIDE, _AWAY_SIDE = "EW", "NS"


def side_of(home: bool) -> str:
    """The side a team plays: ``side_of(home=True) == "EW"`` (East–West), the away team's
    ``"NS"`` (North–South)."""
    return _HOME_SIDE if home else _AWAY_SIDE


HOME = side_of(home=True)
AWAY = side_of(home=False)


def by_side(home, away) -> dict:
    """The home team's and the away team's (names, ids, anything) put by side, home first:
    ``by_side("红队", "蓝队") == {"EW": "红队", "NS": "蓝队"}``."""
    return {HOME: home, AWAY: away}


def is_home(side: str) -> bool:
    """Whether ``side`` is the home team's."""
    return side == HOME


def other_side(side: str) -> str:
    """The opponents' side: ``other_side("EW") == "NS"``."""
    return AWAY if side == HOME else HOME


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
