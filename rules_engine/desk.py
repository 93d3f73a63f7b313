"""The rules desk's reading of a referee's form, without Django: cards as text (``"S7 H7"``,
typed or tapped on the card picker), hands and play logs one seat a line, or a whole request
as JSON, turned into a rules engine request (SPEC 4.5); and the engine's answer put in words
for the page (legal or not, the reason, a failed throw's penalty, the legal plays, a replay).

The server's rules desk (arbitration.services.desk) and the phone's with no network (Pyodide,
:func:`rules_engine.phone.desk_json`) both read the form here, so they ask the same question
and say the same thing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping

from rules_engine import api, json_text
from rules_engine.chengyu.idioms import default_idioms
from rules_engine.errors import RulesError
from rules_engine.i18n import localize, t, term
from rules_engine.words import path_words

ACTIONS = ("check", "classify", "score")
CARD_FIELDS = ("hand", "previous", "lead", "trick", "throw", "cards", "play", "bottom")
TEXT_FIELDS = ("level", "trump", "previous_kind", "previous_rank", "leader", "dealer")
SEPARATORS = re.compile(r"[\s,，、;；]+")
SEAT_LINE = re.compile(r"^\s*([ESWNeswn东南西北])\s*[:：]\s*(.*)$")
SEAT_WORDS = {"东": "E", "南": "S", "西": "W", "北": "N"}


def card_list(text: str) -> list[str]:
    return [word for word in SEPARATORS.split(text.strip()) if word]


def parse_json(text: str, field: str) -> object:
    """JSON text of the form; RulesError naming ``field`` when it is not JSON, nests too
    deeply or holds a number too long (rules_engine.json_text)."""
    return json_text.loads(text, field, field)


def _hands(text: str) -> dict[str, list[str]]:
    hands = {}
    for number, line in enumerate(text.strip().splitlines(), 1):
        if not line.strip():
            continue
        found = SEAT_LINE.match(line)
        if not found:
            raise RulesError(
                t('hands, line {n}: write "E: S7 H7" (a seat, a colon, the cards).', n=number),
                "hands",
            )
        seat = found.group(1)
        hands[SEAT_WORDS.get(seat, seat.upper())] = card_list(found.group(2))
    return hands


def _play_log(text: str, parse: Callable[[str, str], object]) -> list:
    """A play log as JSON, or one play a line: ``E: S3 S3`` (a seat alone is a pass)."""
    if text.strip().startswith("["):
        return parse(text, "play_log")
    log = []
    for number, line in enumerate(text.strip().splitlines(), 1):
        if not line.strip():
            continue
        found = SEAT_LINE.match(line) or SEAT_LINE.match(line.rstrip() + ":")
        if not found:
            raise RulesError(
                t(
                    'play log, line {n}: write "E: S7 S7" (a seat, a colon, the cards played).',
                    n=number,
                ),
                "play_log",
            )
        seat = found.group(1)
        log.append({"seat": SEAT_WORDS.get(seat, seat.upper()), "cards": card_list(found.group(2))})
    return log


def build_request(
    data: Mapping[str, object], parse: Callable[[str, str], object] = parse_json
) -> tuple[str, dict | list]:
    """(action, request) from the desk's form fields; RulesError names a bad field.
    ``parse`` reads pasted JSON (the server passes its own, with its size limits)."""

    def text(name: str) -> str:
        value = data.get(name)
        return value.strip() if isinstance(value, str) else ""

    action = text("action") or "check"
    if action not in ACTIONS:
        raise RulesError(t("Choose check, classify or score."), "action")
    if text("json"):
        return action, parse(text("json"), "json")
    game = text("game")
    if not game:
        raise RulesError(t("Choose the game."), "game")
    request: dict = {"game": game}
    for name in TEXT_FIELDS:
        if text(name):
            request[name] = text(name)
    for name in CARD_FIELDS:
        if text(name):
            request[name] = card_list(text(name))
    if game == "chengyu" and len(request.get("play", [])) == 1:
        request["play"] = request["play"][0]  # one card, as the chengyu request has it
    if text("others"):
        request["others"] = [card_list(line) for line in text("others").splitlines()]
    if text("hands"):
        request["hands"] = _hands(text("hands"))
    if text("play_log"):
        request["play_log"] = _play_log(text("play_log"), parse)
    if action == "check" and "cards" in request and "play" not in request:
        action = "classify"
    if (
        action == "check"
        and data.get("list_plays")
        and any(name in request for name in ("hand", "lead", "previous", "trick"))
    ):
        request["list"] = True  # the legal plays of the hand
    return action, request


def ask(action: str, request) -> dict | list:
    """The engine's answer; a refused request answers ``{"error", "field"}`` as the CLI does."""
    try:
        return api.answer(action, request)
    except RulesError as err:
        return err.as_dict()


def _play_label(play: dict, lang: str | None) -> str:
    kind = localize(term(play.get("kind", "")), lang)
    rank = play.get("rank")
    return f"{kind} {rank}" if rank else kind


def legal_plays(answer: dict, game: str | None, lang: str | None) -> dict | None:
    """The listed legal plays (card codes) with their reading in ``lang`` (and, in the idiom
    game, each card's idiom)."""
    if not isinstance(answer, dict) or "legal_plays" not in answer:
        return None
    idioms = default_idioms() if game == "chengyu" else {}
    plays = [
        {
            "cards": [{"code": code, "idiom": idioms.get(code, "")} for code in play["cards"]],
            "label": _play_label(play, lang),
        }
        for play in answer["legal_plays"]
    ]
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


def summary(answer, game: str | None, lang: str | None) -> dict:
    """What the page shows in words: legal or not, the reason (in ``lang``), a failed throw's
    penalty and forced play (card codes), the legal plays, a replay."""
    if isinstance(answer, list):
        return {"verdict": "list", "items": len(answer)}
    if "error" in answer:
        reason = localize(answer["error"], lang, words=True)
        return {
            "verdict": "error",
            "reason": reason,
            "field": path_words(answer.get("field"), lang),
        }
    listed = legal_plays(answer, game, lang)
    if "legal" in answer:
        return {
            "verdict": "legal" if answer["legal"] else "illegal",
            "reason": localize(answer.get("reason", ""), lang, words=True),
            "penalty_points": answer.get("penalty_points"),
            "forced_play": list(answer.get("forced_play") or []) or None,
            "kind": answer.get("kind"),
            "legal_plays": listed,
            "replay": replay_summary(answer),
        }
    if listed is not None:
        return {"verdict": "plays", "legal_plays": listed}
    return {"verdict": "answer"}


def desk(data: Mapping[str, object], lang: str | None) -> dict:
    """The whole desk question for the phone with no network: the request read from the
    form, the engine's answer and the summary; a form the desk cannot read is a summary of
    verdict "error" naming the field."""
    try:
        action, request = build_request(data)
    except RulesError as err:
        return {
            "action": None,
            "request": None,
            "answer": err.as_dict(),
            "summary": summary(err.as_dict(), None, lang),
        }
    answer = ask(action, request)
    game = request.get("game") if isinstance(request, dict) else None
    return {
        "action": action,
        "request": request,
        "answer": json.loads(json.dumps(answer, ensure_ascii=False)),
        "summary": summary(answer, game, lang),
    }
