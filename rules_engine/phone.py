"""The table page's engine: the one function that turns a phone's record into the engine's
answer, run by the server (the results API's preview and every stored version) and, with no
network, by the phone itself (Pyodide in a Web Worker, ``static/js/engine_worker.js``).

The server and the phone run this same module, so the phone's levels, next player and match
end are the engine's answers, not a second scorer: ``tests/rules_engine/test_phone_parity.py``
runs it in CPython and in Pyodide on generated records of the three games and compares them.

``base`` is what the event adds to every record of a match (its game, preset, settings and
match format): :func:`stored` is the record as it is scored and kept. :func:`answer` gives
what the results API answers a preview: ``(200, outcome)`` or ``(400, {"error", "field"})``,
the error in the page's language with paths and seats in words, the field under ``record``.
"""

from __future__ import annotations

import json
import re

from rules_engine import api
from rules_engine.errors import RulesError
from rules_engine.guandan.seats import SEATS
from rules_engine.i18n import localize, t

# members of a record that the event decides, never the phone
EVENT_KEYS = ("game", "preset", "settings", "format")

# The stable codes of a refusal (the answer's ``code``; the site declares every code of its
# answers with these in tournaments.errors.Code): not a record at all, one deal refused, one
# game of a best of three refused, the record as a whole refused.
INVALID = "invalid"
DEAL_REFUSED = "deal_refused"
GAME_REFUSED = "game_refused"
RECORD_REFUSED = "record_refused"


def deal_key(deal: object) -> object:
    """A deal as the engine reads it, to compare two entries of it (a merge of two versions):
    a guandan finish of three seats is the same deal as the four seats it implies."""
    if isinstance(deal, dict) and isinstance(deal.get("finish"), list):
        finish = deal["finish"]
        if len(finish) == 3 and len(set(finish)) == 3 and set(finish) <= set(SEATS):
            return deal | {"finish": [*finish, next(s for s in SEATS if s not in finish)]}
    return deal


def stored(record: dict, base: dict) -> dict:
    """``record`` as it is scored and stored: the event's game, preset, settings and format
    (``base``) in place of any the record names."""
    kept = {key: value for key, value in record.items() if key not in ("format", "settings")}
    return kept | {key: value for key, value in base.items() if key in EVENT_KEYS}


def refusal_code(field: str | None, record: dict) -> tuple[str, dict]:
    """What an engine refusal of ``record`` names, as a stable code and its details: one deal
    (``deal_refused``, ``deal``: its index among all the record's deals in order, and for a
    best of three ``game`` and ``game_deal``), one game (``game_refused``, ``game``) or the
    record as a whole (``record_refused``)."""
    field = field or ""
    games = record.get("games") if isinstance(record.get("games"), list) else None
    found = re.match(r"deals\[(\d+)\]", field)
    if found and games is None:
        return DEAL_REFUSED, {"deal": int(found[1])}
    found = re.match(r"games\[(\d+)\](?:\.deals\[(\d+)\])?", field)
    if found and games is not None:
        g = int(found[1])
        before = sum(len(game.get("deals") or []) for game in games[:g] if isinstance(game, dict))
        if found[2] is not None:
            k = int(found[2])
            return DEAL_REFUSED, {"deal": before + k, "game": g, "game_deal": k}
        return GAME_REFUSED, {"game": g}
    return RECORD_REFUSED, {}


def refusal(err: RulesError, lang: str | None, record: dict, prefix: str = "record") -> dict:
    """The engine's refusal as the API answers it: words in ``lang``, field under ``prefix``,
    its code and details (:func:`refusal_code`)."""
    field = f"{prefix}.{err.field}" if err.field else prefix
    code, details = refusal_code(err.field, record)
    return {
        "error": localize(err.message, lang, words=True),
        "field": field,
        "code": code,
        **details,
    }


def answer(record: object, base: dict, lang: str | None) -> tuple[int, dict]:
    """The preview answer for ``record``: (200, the engine's outcome as JSON data) or
    (400, the refusal)."""
    if not isinstance(record, dict):
        message = localize(t("a match record must be a JSON object"), lang, words=True)
        return 400, {"error": message, "field": "record", "code": INVALID}
    scored = stored(record, base)
    try:
        outcome = api.score(scored)
    except RulesError as err:
        return 400, refusal(err, lang, scored)
    return 200, json.loads(json.dumps(outcome, ensure_ascii=False))


def answer_json(record_json: str, base_json: str, lang: str) -> str:
    """:func:`answer` over JSON text (what the Web Worker calls): ``{"status", "data"}``."""
    status, data = answer(json.loads(record_json), json.loads(base_json), lang)
    return json.dumps({"status": status, "data": data}, ensure_ascii=False)


def answer_many_json(pairs_json: str, lang: str) -> str:
    """:func:`answer` for each ``[record, base]`` pair of a JSON list (the parity test)."""
    answers = []
    for record, base in json.loads(pairs_json):
        status, data = answer(record, base, lang)
        answers.append({"status": status, "data": data})
    return json.dumps(answers, ensure_ascii=False)


def desk_json(fields_json: str, lang: str) -> str:
    """The rules desk's question from its form fields, answered as the desk page does
    (:func:`rules_engine.desk.desk`): ``{"status": 200, "data": {...}}``."""
    from rules_engine import desk

    data = desk.desk(json.loads(fields_json), lang)
    return json.dumps({"status": 200, "data": data}, ensure_ascii=False)
