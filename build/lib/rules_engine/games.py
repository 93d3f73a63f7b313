"""The games the engine plays: each module exposes ``score(record)``, ``check(request)`` and
optionally ``classify(request)``, all taking and returning plain JSON-able data."""

from __future__ import annotations

from types import ModuleType

from rules_engine import chengyu, tractor
from rules_engine.errors import RulesError
from rules_engine.guandan import interchange as guandan
from rules_engine.i18n import t

GAMES: dict[str, ModuleType] = {"guandan": guandan, "tractor": tractor, "chengyu": chengyu}


def game_module(name: object) -> ModuleType:
    """The module that plays game ``name``; RulesError (field "game") when there is none."""
    if not isinstance(name, str) or name not in GAMES:
        known = ", ".join(GAMES)
        raise RulesError(
            t("unknown game {name!r} (known: {known})", name=name, known=known), "game"
        )
    return GAMES[name]


def score_plain(record: dict) -> dict:
    """Score a match record as its game does, without the effects of rulings."""
    return game_module(record.get("game")).score(record)
