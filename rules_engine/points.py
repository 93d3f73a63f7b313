"""Match points as exact decimals (SPEC 3.1: 南山杯 2026 scores 1 / 0.5 / 0, absent −1).

An edition's match points are :class:`~decimal.Decimal` values, never floats, so that the
sum of a hundred 0.5s is exactly 50. They are read from a whole number, a Decimal, a
decimal text (``"0.5"``, what an edition's JSON holds) or a JSON number (``0.5``: read by
its shortest decimal text, so it is the decimal that was written), with at most
:data:`PLACES` decimals. They are written back as:

* :func:`points_json` — a whole number as an ``int`` (``3``, as before), any other as its
  decimal text (``"0.5"``): an edition's values and an event's settings;
* :func:`answer_number` — a whole number as an ``int``, any other as a JSON number
  (``0.5``): the engine's score answer, whose ``match_points`` stay numbers;
* :func:`points_text` — the figure people read: ``"0.5"``, ``"1"``, ``"-1"``, ``"2.5"``
  (never ``"0.50"``, ``"1.0"`` or ``"1E+1"``).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

# Decimals a match-point value may have (a store of 8 digits, 2 after the point).
PLACES = 2
LIMIT = Decimal(10) ** (8 - PLACES)  # |points| below a million


class PointsError(ValueError):
    """A value that is not a number of match points."""


def to_points(value: object) -> Decimal:
    """``value`` as exact match points (whole numbers stay whole: ``Decimal('3')``).

    Raises PointsError for a bool, a non-number, NaN or infinity, more than :data:`PLACES`
    decimals, or a magnitude of a million or more."""
    if isinstance(value, bool) or value is None:
        raise PointsError(f"not a number of match points: {value!r}")
    if isinstance(value, Decimal):
        number = value
    elif isinstance(value, int):
        number = Decimal(value)
    elif isinstance(value, float):
        number = Decimal(repr(value))  # the decimal the JSON number was written as
    elif isinstance(value, str):
        try:
            number = Decimal(value.strip())
        except InvalidOperation:
            raise PointsError(f"not a number of match points: {value!r}") from None
    else:
        raise PointsError(f"not a number of match points: {value!r}")
    if not number.is_finite() or abs(number) >= LIMIT:
        raise PointsError(f"not a number of match points: {value!r}")
    if number != number.quantize(Decimal(1).scaleb(-PLACES)):
        raise PointsError(f"at most {PLACES} decimals: {value!r}")
    return normal(number)


def normal(number: Decimal) -> Decimal:
    """``number`` without trailing zeros and without an exponent: ``Decimal('1.50')`` →
    ``Decimal('1.5')``, ``Decimal('2.0')`` → ``Decimal('2')``, ``Decimal('-0')`` → ``0``."""
    if number == number.to_integral_value():
        return Decimal(int(number))
    return number.normalize()


def total(values) -> Decimal:
    """The exact sum of match points (each read by :func:`to_points`)."""
    return normal(sum((to_points(v) for v in values), Decimal(0)))


def points_json(value: object) -> int | str:
    """An edition's value as JSON: ``3`` for a whole number, ``"0.5"`` otherwise."""
    number = to_points(value)
    return int(number) if number == number.to_integral_value() else str(number)


def answer_number(value: object) -> int | float:
    """Match points in the engine's answer: ``3`` for a whole number, the JSON number ``0.5``
    otherwise (its shortest text is the decimal, so it reads back exactly)."""
    number = to_points(value)
    return int(number) if number == number.to_integral_value() else float(number)


def points_text(value: object) -> str:
    """The figure people read: ``"0.5"``, ``"1"``, ``"-1"`` (``""`` for None)."""
    if value is None:
        return ""
    try:
        number = value if isinstance(value, Decimal) else to_points(value)
    except PointsError:
        return str(value)
    return format(normal(number), "f")
