"""Settings checked by their declared types: the schema of every settings dataclass.

A settings dataclass (:class:`~rules_engine.presets.Preset`,
:class:`~rules_engine.ladder.LadderSettings`) declares each field's type; :func:`check_values`
checks an event's values against those types, so a field added to the dataclass is
checked without more code. A field's metadata narrows it:

* ``Decimal`` — match points, exact (``"0.5"``; :mod:`rules_engine.points`), negative too
  unless ``min`` says otherwise;
* ``min`` / ``max`` — bounds of a number (0 or more unless ``min`` says otherwise;
  ``min: None`` allows any number);
* ``choices`` — the texts allowed;
* ``check`` — ``check(value, where)`` for a value whose shape its type cannot say (it
  returns the value to store, or raises RulesError).

A field declared with :func:`setting` is an event setting's one declaration: its type and
default (the dataclass), bounds, choices, and the words the pages, the API schema and the
README show (``label``, ``help``, ``choice_words``). Validation (:func:`check_values`), the
settings form (tournaments/forms_settings.py) and the README's table
(:func:`settings_table`, tests/rules_engine/test_settings_table.py) are made from it.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from decimal import Decimal
from functools import cache

from rules_engine.errors import RulesError, sub_field
from rules_engine.i18n import Text, joined, t
from rules_engine.points import PointsError, to_points

_MISSING = object()


def setting(
    default: object = dataclasses.MISSING,
    *,
    label: str,
    help: str = "",
    min: object = _MISSING,
    max: int | None = None,
    choices: Mapping[str, str] | None = None,
    items: tuple[str, ...] | None = None,
    keys: tuple[str, ...] | None = None,
    key_words: Mapping[str, str] | None = None,
    token_words: Mapping[str, str] | None = None,
    check=None,
    scoring: bool = False,
    default_factory: object = dataclasses.MISSING,
):
    """A dataclass field declared as an event setting (see the module docstring): ``label``
    and ``help`` are words (:func:`rules_engine.i18n.gettext_noop`), ``choices`` maps each
    allowed text to its words; ``scoring`` marks a setting that decides match points or the
    ranking (fixed once a round is published)."""
    meta: dict = {"label": label}
    if help:
        meta["help"] = help
    if min is not _MISSING:
        meta["min"] = min
    if max is not None:
        meta["max"] = max
    if choices is not None:
        meta["choices"] = tuple(choices)
        meta["choice_words"] = dict(choices)
    if items is not None:
        meta["items"] = tuple(items)  # a list's allowed items (its ``check`` holds them to it)
    if keys is not None:
        meta["keys"] = tuple(keys)  # an object's allowed keys, each holding a list of ``items``
    if key_words is not None:
        meta["key_words"] = dict(key_words)  # each key's words (a form's row heading)
    if token_words is not None:
        meta["token_words"] = dict(token_words)  # how a form shows each value (♠ for S)
    if check is not None:
        meta["check"] = check
    if scoring:
        meta["scoring"] = True
    return dataclasses.field(default=default, default_factory=default_factory, metadata=meta)


@cache
def fields_of(cls: type) -> dict[str, tuple[dataclasses.Field, object]]:
    """name -> (field, resolved type) for every field of the dataclass ``cls``."""
    hints = typing.get_type_hints(cls)
    return {f.name: (f, hints[f.name]) for f in dataclasses.fields(cls)}


def check_values(cls: type, values: Mapping, prefix: str = "") -> dict:
    """The items of ``values`` that are fields of ``cls``, each checked against its type
    and metadata (lists become tuples). RulesError names ``prefix + key``."""
    known = fields_of(cls)
    checked = {}
    for key, value in values.items():
        if key in known:
            field, hint = known[key]
            checked[key] = check_value(hint, value, f"{prefix}{key}", field.metadata)
    return checked


def check_value(hint: object, value: object, where: str, meta: Mapping | None = None) -> object:
    """``value`` if it fits the type ``hint`` (lists as tuples); RulesError naming ``where``."""
    meta = meta or {}
    if "check" in meta:
        return meta["check"](value, where)
    found = _fit(hint, value, where, meta)
    if found is _MISSING:
        raise RulesError(t("{field} must be {kind}", field=where, kind=describe(hint, meta)), where)
    return found


def _fit(hint, value, where: str, meta: Mapping):
    """The stored form of ``value`` when it fits ``hint``; _MISSING when it does not."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        options = [a for a in args if a is not type(None)]
        for option in options:
            found = _fit(option, value, where, meta)
            if found is not _MISSING:
                return found
        return _MISSING
    if origin is typing.Literal:
        return value if value in args else _MISSING
    if hint is bool:
        return value if isinstance(value, bool) else _MISSING
    if hint is Decimal:  # match points: exact, e.g. "0.5" (rules_engine.points)
        try:
            number = to_points(value)
        except PointsError:
            return _MISSING
        low, high = meta.get("min"), meta.get("max")  # points may be negative (absent -1)
        if (low is not None and number < low) or (high is not None and number > high):
            return _MISSING
        return number
    if hint is int or hint is float:
        kinds = (int,) if hint is int else (int, float)
        if isinstance(value, bool) or not isinstance(value, kinds):
            return _MISSING
        low, high = meta.get("min", 0), meta.get("max")
        if (low is not None and value < low) or (high is not None and value > high):
            return _MISSING
        return value
    if hint is str:
        if not isinstance(value, str):
            return _MISSING
        return value if not meta.get("choices") or value in meta["choices"] else _MISSING
    if origin is tuple:
        if not isinstance(value, list | tuple):
            return _MISSING
        if len(args) == 2 and args[1] is Ellipsis:
            items = [_item(args[0], v, sub_field(where, i)) for i, v in enumerate(value)]
        elif len(args) == len(value):
            items = [
                _item(a, v, sub_field(where, i))
                for i, (a, v) in enumerate(zip(args, value, strict=True))
            ]
        else:
            return _MISSING
        return _MISSING if _MISSING in items else tuple(items)
    if origin in (dict, Mapping) or hint in (dict, Mapping):
        return dict(value) if isinstance(value, Mapping) else _MISSING
    return value  # a type this schema does not know: the dataclass's own checks apply


def _item(hint, value, where):
    return _fit(hint, value, where, {})


def describe(hint: object, meta: Mapping | None = None) -> Text:
    """What a value of type ``hint`` must be, in words."""
    meta = meta or {}
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        kind = describe(options[0], meta) if len(options) == 1 else t("a value")
        return t("{kind}, or null", kind=kind) if type(None) in args else kind
    if origin is typing.Literal:
        return t("one of {choices}", choices=", ".join(map(str, args)))
    if hint is bool:
        return t("true or false")
    if hint is Decimal:
        if meta.get("min") is None:
            return t("a number with at most two decimals (e.g. 1, 0.5 or -1)")
        return t("a number with at most two decimals, 0 or more (e.g. 1 or 0.5)")
    if hint is int or hint is float:
        low, high = meta.get("min", 0), meta.get("max")
        if hint is int:
            if low is None:
                return t("a whole number")
            if high is not None:
                return t("a whole number from {low} to {high}", low=low, high=high)
            return t("a whole number of {low} or more", low=low)
        if low is None:
            return t("a number")
        if high is not None:
            return t("a number from {low} to {high}", low=low, high=high)
        return t("a number of {low} or more", low=low)
    if hint is str:
        if meta.get("choices"):
            return t("one of {choices}", choices=", ".join(meta["choices"]))
        return t("a text")
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return t("a list whose items are each {kind}", kind=describe(args[0]))
        return t(
            "a list of {count} items: {kinds}",
            count=len(args),
            kinds=joined([describe(a) for a in args]),
        )
    if origin in (dict, Mapping) or hint in (dict, Mapping):
        return t("an object")
    return t("a value")
