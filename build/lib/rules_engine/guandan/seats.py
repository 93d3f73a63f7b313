"""Seats, sides and the order of play (SPEC 4.5): seats E S W N, EW home and NS away,
partners E+W and S+N, play goes E -> N -> W -> S (counter-clockwise)."""

from __future__ import annotations

from rules_engine.errors import RulesError, sub_field
from rules_engine.i18n import t

SEATS = ("E", "S", "W", "N")
PLAY_ORDER = ("E", "N", "W", "S")
PARTNER = {"E": "W", "W": "E", "S": "N", "N": "S"}
SIDE_OF = {"E": "EW", "W": "EW", "S": "NS", "N": "NS"}


def next_seat(seat: str) -> str:
    """The next seat in the order of play (下家)."""
    return PLAY_ORDER[(PLAY_ORDER.index(seat) + 1) % 4]


def previous_seat(seat: str) -> str:
    """The seat that plays just before ``seat`` (上家)."""
    return PLAY_ORDER[(PLAY_ORDER.index(seat) - 1) % 4]


def parse_seat(value: object, field: str) -> str:
    seat = value.strip().upper() if isinstance(value, str) else None
    if seat not in SEATS:
        raise RulesError(
            t("{field}: unknown seat {value!r} (seats are E, S, W, N)", field=field, value=value),
            field,
        )
    return seat


def parse_seats(values: object, field: str) -> list[str]:
    """A list of distinct seats; RulesError for an unknown seat or a seat twice."""
    if not isinstance(values, list):
        raise RulesError(
            t('{field} must be a list of seats such as ["E", "W"]', field=field), field
        )
    seats = []
    for i, value in enumerate(values):
        seat = parse_seat(value, sub_field(field, i))
        if seat in seats:
            raise RulesError(t("{field}: seat {seat} appears twice", field=field, seat=seat), field)
        seats.append(seat)
    return seats
