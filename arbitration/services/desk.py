"""The rules desk: a referee's form (cards as text, e.g. "S7 H7", typed or tapped on the
card picker) turned into a rules engine request (SPEC 4.5), and the engine's ruling. A
pasted JSON request or play log is taken as it is, so the desk answers exactly as
``python -m rules_engine check``. With "list legal plays" ticked the request asks for
``"list": true``; the page draws the legal plays as cards with their reading.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from rules_engine import desk as engine_desk
from rules_engine.chengyu.idioms import default_idioms
from rules_engine.errors import RulesError
from rules_engine.i18n import localize
from tournaments.validation import BadInput, parse_json

from . import ArbitrationError

ACTIONS = engine_desk.ACTIONS
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
DECKS = {"guandan": 2, "tractor": 3, "chengyu": 1}
card_list = engine_desk.card_list


def _json(text: str, field: str):
    try:
        return parse_json(text, field)
    except BadInput as err:
        raise ArbitrationError(
            _("%(field)s is not valid JSON: %(error)s"),
            field,
            field=field,
            error=err,
        ) from None


def build_request(data: Mapping[str, str]) -> tuple[str, dict | list]:
    """(action, request) from the desk's form fields (rules_engine.desk reads them, as the
    phone's desk does offline); ArbitrationError names a bad field."""
    try:
        return engine_desk.build_request(data, parse=_json)
    except RulesError as err:
        raise ArbitrationError(
            localize(err.message, get_language(), words=True), err.field
        ) from None


def chip(code: str) -> dict:
    """One card as the page draws it: ``{"code": "S10", "suit": "♠", "rank": "10", "red"}``."""
    text = str(code)
    if text in ("LJ", "BJ"):
        return {
            "code": text,
            "suit": "",
            "rank": gettext("Small joker") if text == "LJ" else gettext("Big joker"),
            "red": text == "BJ",
        }
    suit, rank = text[:1], text[1:]
    return {
        "code": text,
        "suit": SUIT_SYMBOLS.get(suit, suit),
        "rank": rank,
        "red": suit in ("H", "D"),
    }


def legal_plays(answer: dict, game: str | None = None) -> dict | None:
    """The listed legal plays as cards the page draws, with their reading in the page's
    language (and, in the idiom game, each card's idiom)."""
    listed = engine_desk.legal_plays(answer, game, get_language())
    if listed is None:
        return None
    for play in listed["plays"]:
        play["cards"] = [chip(card["code"]) | {"idiom": card["idiom"]} for card in play["cards"]]
    return listed


replay_summary = engine_desk.replay_summary
ask = engine_desk.ask


def picker() -> dict:
    """What the card picker needs: the decks of each game and the idiom printed on each card
    of the default idiom deck (shown when the idiom game is chosen)."""
    return {
        "decks": DECKS,
        "idioms": default_idioms(),
        "suits": SUIT_SYMBOLS,
        "jokers": {"LJ": gettext("Small joker"), "BJ": gettext("Big joker")},
    }


def summary(answer, game: str | None = None) -> dict:
    """What the page shows in words (rules_engine.desk.summary), cards as the page draws them."""
    words = engine_desk.summary(answer, game, get_language())
    if words.get("forced_play"):
        words["forced_play"] = [chip(code) for code in words["forced_play"]]
    if words.get("legal_plays"):
        for play in words["legal_plays"]["plays"]:
            play["cards"] = [chip(c["code"]) | {"idiom": c["idiom"]} for c in play["cards"]]
    return words
