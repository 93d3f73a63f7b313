"""The rules desk: a referee's form (cards as text, e.g. "S7 H7", typed or tapped on the
card picker) turned into a rules engine request (SPEC 4.5), and the engine's ruling. A
pasted JSON request or play log is taken as it is, so the desk answers exactly as
``python -m rules_engine check``. With "list legal plays" ticked the request asks for
``"list": true``; the page draws the legal plays as cards with their reading.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from rules_engine import api
from rules_engine.chengyu.idioms import default_idioms
from rules_engine.errors import RulesError
from rules_engine.i18n import localize, term
from rules_engine.words import path_words
from tournaments.validation import BadInput, parse_json

from . import ArbitrationError

ACTIONS = ("check", "classify", "score")
CARD_FIELDS = ("hand", "previous", "lead", "trick", "throw", "cards", "play", "bottom")
TEXT_FIELDS = ("level", "trump", "previous_kind", "previous_rank", "leader", "dealer")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
DECKS = {"guandan": 2, "tractor": 3, "chengyu": 1}
SEPARATORS = re.compile(r"[\s,，、;；]+")
SEAT_LINE = re.compile(r"^\s*([ESWNeswn东南西北])\s*[:：]\s*(.*)$")
SEAT_WORDS = {"东": "E", "南": "S", "西": "W", "北": "N"}


def card_list(text: str) -> list[str]:
    return [word for word in SEPARATORS.split(text.strip()) if word]


def _json(text: str, field: str):
    try:
        return parse_json(text, field)
    except BadInput as err:
        raise ArbitrationError(
            _("%(field)s is not valid JSON: %(error)s") % {"field": field, "error": err.message},
            field,
        ) from None


def _hands(text: str) -> dict[str, list[str]]:
    hands = {}
    for number, line in enumerate(text.strip().splitlines(), 1):
        if not line.strip():
            continue
        found = SEAT_LINE.match(line)
        if not found:
            raise ArbitrationError(
                _('hands, line %(n)s: write "E: S7 H7" (a seat, a colon, the cards).')
                % {"n": number},
                "hands",
            )
        seat = found.group(1)
        hands[SEAT_WORDS.get(seat, seat.upper())] = card_list(found.group(2))
    return hands


def _play_log(text: str) -> list:
    """A play log as JSON, or one play a line: ``E: S3 S3`` (a seat alone is a pass)."""
    if text.strip().startswith("["):
        return _json(text, "play_log")
    log = []
    for number, line in enumerate(text.strip().splitlines(), 1):
        if not line.strip():
            continue
        found = SEAT_LINE.match(line) or SEAT_LINE.match(line.rstrip() + ":")
        if not found:
            raise ArbitrationError(
                _('play log, line %(n)s: write "E: S7 S7" (a seat, a colon, the cards played).')
                % {"n": number},
                "play_log",
            )
        seat = found.group(1)
        log.append({"seat": SEAT_WORDS.get(seat, seat.upper()), "cards": card_list(found.group(2))})
    return log


def build_request(data: Mapping[str, str]) -> tuple[str, dict | list]:
    """(action, request) from the desk's form fields; ArbitrationError names a bad field."""
    action = (data.get("action") or "").strip() or "check"
    if action not in ACTIONS:
        raise ArbitrationError(_("Choose check, classify or score."), "action")
    raw = (data.get("json") or "").strip()
    if raw:
        return action, _json(raw, "json")
    game = (data.get("game") or "").strip()
    if not game:
        raise ArbitrationError(_("Choose the game."), "game")
    request: dict = {"game": game}
    for name in TEXT_FIELDS:
        value = (data.get(name) or "").strip()
        if value:
            request[name] = value
    for name in CARD_FIELDS:
        value = (data.get(name) or "").strip()
        if value:
            request[name] = card_list(value)
    if game == "chengyu" and len(request.get("play", [])) == 1:
        request["play"] = request["play"][0]  # one card, as the chengyu request has it
    if (data.get("others") or "").strip():
        request["others"] = [card_list(line) for line in data["others"].strip().splitlines()]
    if (data.get("hands") or "").strip():
        request["hands"] = _hands(data["hands"])
    if (data.get("play_log") or "").strip():
        request["play_log"] = _play_log(data["play_log"])
    if action == "check" and "cards" in request and "play" not in request:
        action = "classify"
    if (
        action == "check"
        and data.get("list_plays")
        and any(name in request for name in ("hand", "lead", "previous", "trick"))
    ):
        request["list"] = True  # the legal plays of the hand
    return action, request


def chip(code: str) -> dict:
    """One card as the page draws it: ``{"code": "S10", "suit": "♠", "rank": "10", "red"}``."""
    text = str(code)
    if text in ("LJ", "BJ"):
        return {"code": text, "suit": "", "rank": _("Small joker") if text == "LJ" else
                _("Big joker"), "red": text == "BJ"}  # fmt: skip
    suit, rank = text[:1], text[1:]
    return {"code": text, "suit": SUIT_SYMBOLS.get(suit, suit), "rank": rank,
            "red": suit in ("H", "D")}  # fmt: skip


def _play_label(play: dict, lang: str) -> str:
    kind = localize(term(play.get("kind", "")), lang)
    rank = play.get("rank")
    return f"{kind} {rank}" if rank else kind


def legal_plays(answer: dict, game: str | None = None) -> dict | None:
    """The listed legal plays as cards, with their reading in the page's language (and, in
    the idiom game, each card's idiom)."""
    if not isinstance(answer, dict) or "legal_plays" not in answer:
        return None
    lang = get_language()
    idioms = default_idioms() if game == "chengyu" else {}
    plays = [
        {"cards": [chip(code) | {"idiom": idioms.get(code, "")} for code in play["cards"]],
         "label": _play_label(play, lang)}
        for play in answer["legal_plays"]
    ]  # fmt: skip
    return {"plays": plays, "count": answer.get("count", len(plays)), "more": answer.get("more", 0)}


def replay_summary(answer: dict) -> dict | None:
    """A tractor replay in words: tricks, the defenders' points, the deal record."""
    if not isinstance(answer, dict) or "tricks" not in answer or "defender_points" not in answer:
        return None
    return {
        "tricks": len(answer["tricks"]),
        "defender_points": answer["defender_points"],
        "bottom_multiplier": answer.get("bottom_multiplier"),
        "failed_throws": answer.get("failed_throws") or [],
        "deal": json.dumps(answer["deal"], ensure_ascii=False) if answer.get("deal") else "",
        "index": answer.get("index"),
        "seat": answer.get("seat"),
    }


def picker() -> dict:
    """What the card picker needs: the decks of each game and the idiom printed on each card
    of the default idiom deck (shown when the idiom game is chosen)."""
    return {"decks": DECKS, "idioms": default_idioms(), "suits": SUIT_SYMBOLS,
            "jokers": {"LJ": _("Small joker"), "BJ": _("Big joker")}}  # fmt: skip


def ask(action: str, request) -> dict | list:
    """The engine's answer; a refused request answers ``{"error", "field"}`` as the CLI does."""
    try:
        return api.answer(action, request)
    except RulesError as err:
        return err.as_dict()


def summary(answer, game: str | None = None) -> dict:
    """What the page shows in words: legal or not, the reason (in the page's language), a
    failed throw's penalty."""
    if isinstance(answer, list):
        return {"verdict": "list", "items": len(answer)}
    lang = get_language()
    if "error" in answer:
        reason = localize(answer["error"], lang, words=True)
        return {"verdict": "error", "reason": reason,
                "field": path_words(answer.get("field"), lang)}  # fmt: skip
    listed = legal_plays(answer, game)
    if "legal" in answer:
        return {
            "verdict": "legal" if answer["legal"] else "illegal",
            "reason": localize(answer.get("reason", ""), lang, words=True),
            "penalty_points": answer.get("penalty_points"),
            "forced_play": [chip(c) for c in answer.get("forced_play") or []] or None,
            "kind": answer.get("kind"),
            "legal_plays": listed,
            "replay": replay_summary(answer),
        }
    if listed is not None:
        return {"verdict": "plays", "legal_plays": listed}
    return {"verdict": "answer"}
