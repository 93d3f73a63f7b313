"""The one reading of JSON text for the engine and the site: how deep it may nest, how long
a number may be, and where a number past that is.

Python's ``json`` reads a 100,000-deep array into a RecursionError and a 20,000-digit number
into a ValueError (its int conversion limit) — faults, not refusals. Here a number longer
than :data:`MAX_NUMBER_DIGITS` digits is kept as a :class:`LongNumber` (its text) while
parsing, and :func:`first_problem` walks the value without recursion to name its path; the
engine's CLI and rules desk (:func:`loads`) and the site's request validation
(tournaments.validation, which reads these limits) refuse it with that path.
"""

from __future__ import annotations

import json
import math

from rules_engine.errors import RulesError
from rules_engine.i18n import t

MAX_JSON_DEPTH = 32  # levels of arrays and objects; a request of the engine needs 6
MAX_NUMBER_DIGITS = 20  # digits of a number; the largest value any field holds has 19


class LongNumber(str):
    """The text of a number with more than MAX_NUMBER_DIGITS digits (never converted)."""


def digits(text: str) -> int:
    mantissa = text.lower().split("e", 1)[0]
    return sum(ch.isdigit() for ch in mantissa)


def parse_int(text: str):
    return LongNumber(text) if digits(text) > MAX_NUMBER_DIGITS else int(text)


def parse_float(text: str):
    if digits(text) > MAX_NUMBER_DIGITS or len(text) > 2 * MAX_NUMBER_DIGITS:
        return LongNumber(text)
    return float(text)


def no_constant(name: str):
    """NaN, Infinity, -Infinity: not JSON; kept as a number too long to read."""
    return LongNumber(name)


def decode(text: str) -> object:
    """``json.loads`` with the number hooks; RecursionError when too deep to parse."""
    return json.loads(
        text, parse_int=parse_int, parse_float=parse_float, parse_constant=no_constant
    )


def first_problem(value, limit: int = MAX_JSON_DEPTH, path: str | None = None):
    """``(kind, path)`` of the first problem of a parsed value — ``"deep"`` (nested past
    ``limit``), ``"number"`` (a LongNumber) or ``"infinite"`` (a float out of range) — or
    None. Iterative: a deep value cannot exhaust the stack."""
    stack = [(value, 1, path)]
    while stack:
        item, depth, where = stack.pop()
        if isinstance(item, LongNumber):
            return "number", where
        if isinstance(item, float) and not math.isfinite(item):
            return "infinite", where
        if not isinstance(item, dict | list):
            continue
        if depth > limit:
            return "deep", where
        pairs = item.items() if isinstance(item, dict) else enumerate(item)
        for key, child in pairs:
            name = (
                (f"{where}[{key}]" if isinstance(key, int) else f"{where}.{key}")
                if where
                else (f"[{key}]" if isinstance(key, int) else str(key))
            )
            stack.append((child, depth + 1, name))
    return None


def loads(text: str, name: str, field: str | None = None) -> object:
    """Parse ``text`` (called ``name`` in messages); RulesError (naming ``field``, or the
    path at fault) when it is not JSON, nests too deeply or holds a number too long."""
    try:
        value = decode(text)
    except RecursionError:
        raise too_deep(name, field) from None
    except json.JSONDecodeError as err:
        raise RulesError(
            t(
                "{name} is not valid JSON: {msg} at line {lineno} column {colno}",
                name=name,
                msg=err.msg,
                lineno=err.lineno,
                colno=err.colno,
            ),
            field,
        ) from None
    except ValueError as err:  # what else the decoder refuses
        raise RulesError(
            t("{field} is not valid JSON: {error}", field=name, error=str(err)), field
        ) from None
    problem = first_problem(value)
    if problem is None:
        return value
    kind, path = problem
    if kind == "deep":
        raise too_deep(name, field)
    where = path or field
    raise RulesError(
        t(
            "{name}: the number at {path} is too long or not finite (at most {digits} digits)",
            name=name,
            path=path or "(top)",
            digits=MAX_NUMBER_DIGITS,
        ),
        where,
    )


def too_deep(name: str, field: str | None) -> RulesError:
    return RulesError(
        t("{name} is nested too deeply (at most {depth} levels)", name=name, depth=MAX_JSON_DEPTH),
        field,
    )
