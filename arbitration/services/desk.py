"""The rules desk: a referee's form (cards as text, e.g. "S7 H7") turned into a rules engine
request (SPEC 4.5), and the engine's ruling. A pasted JSON request or play log is taken as
it is, so the desk answers exactly as ``python -m rules_engine check``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from rules_engine import api
from rules_engine.errors import RulesError
from rules_engine.i18n import localize
from tournaments.validation import BadInput, parse_json

from . import ArbitrationError

ACTIONS = ("check", "classify", "score")
CARD_FIELDS = ("hand", "previous", "lead", "trick", "throw", "cards", "play")
TEXT_FIELDS = ("level", "trump", "previous_kind", "previous_rank", "leader")
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
        request["play_log"] = _json(data["play_log"], "play_log")
    if action == "check" and "cards" in request and "play" not in request:
        action = "classify"
    return action, request


def ask(action: str, request) -> dict | list:
    """The engine's answer; a refused request answers ``{"error", "field"}`` as the CLI does."""
    try:
        return api.answer(action, request)
    except RulesError as err:
        return err.as_dict()


def summary(answer) -> dict:
    """What the page shows in words: legal or not, the reason (in the page's language), a
    failed throw's penalty."""
    if isinstance(answer, list):
        return {"verdict": "list", "items": len(answer)}
    lang = get_language()
    if "error" in answer:
        reason = localize(answer["error"], lang)
        return {"verdict": "error", "reason": reason, "field": answer.get("field")}
    if "legal" in answer:
        return {
            "verdict": "legal" if answer["legal"] else "illegal",
            "reason": localize(answer.get("reason", ""), lang),
            "penalty_points": answer.get("penalty_points"),
            "forced_play": answer.get("forced_play"),
            "kind": answer.get("kind"),
        }
    return {"verdict": "answer"}
