"""The engine's public entry points, shared by the CLI and the Django apps (SPEC 4.5).

``score(obj)``, ``check(obj)`` and ``classify(obj)`` take parsed JSON: one request object,
or a list of them (answered with a list in which a bad item becomes
``{"error": "...", "field": "..."}``). They dispatch on ``obj["game"]`` through
:data:`GAMES`; each game module exposes ``score(record)``, ``check(request)`` and
optionally ``classify(request)``, all taking and returning plain JSON-able data.
"""

from __future__ import annotations

from collections.abc import Callable

from rules_engine import adjustments, match_format
from rules_engine.errors import RulesError
from rules_engine.games import GAMES, game_module
from rules_engine.i18n import t

ACTIONS = ("score", "check", "classify")


def _dispatch(action: str, request: object) -> dict:
    if not isinstance(request, dict):
        raise RulesError(t('a request must be a JSON object with a "game" field'))
    if "game" not in request:
        raise RulesError(t('the request has no "game" field (guandan, tractor or chengyu)'), "game")
    if action == "score" and request.get("adjustments"):
        # Effects of rulings (level deduction, match loss, trick transfer) ride on the record.
        return adjustments.score(request)
    if action == "score" and request.get("format") is not None:
        # Match formats (pass A, N deals, time, time-or-deals; best of three) wrap the game's
        # own scoring: match_format.score scores the record's deals through the game module.
        return match_format.with_level_points(request, match_format.score(request))
    handler: Callable[[dict], dict] | None = getattr(game_module(request["game"]), action, None)
    if handler is None:
        raise RulesError(
            t("{action} is not available for {game}", action=action, game=request["game"]), "game"
        )
    answer = handler(request)
    if action == "score":
        answer = match_format.with_level_points(request, answer)
    return answer


def answer(action: str, obj: object) -> dict | list:
    """Answer one request, or each request of a list (errors in place of bad items)."""
    if action not in ACTIONS:
        raise RulesError(
            t(
                "unknown action {action!r} (known: {known})",
                action=action,
                known=", ".join(ACTIONS),
            ),
            "action",
        )
    if isinstance(obj, list):
        answers = []
        for i, item in enumerate(obj):
            try:
                answers.append(_dispatch(action, item))
            except RulesError as err:
                answers.append(
                    {"error": t("item {i}: {message}", i=i, message=err.message)} | _field(err)
                )
        return answers
    return _dispatch(action, obj)


def _field(err: RulesError) -> dict:
    return {"field": err.field} if err.field is not None else {}


def has_errors(answers: dict | list) -> bool:
    """True when a list answer holds at least one error item."""
    return isinstance(answers, list) and any(
        isinstance(item, dict) and "error" in item for item in answers
    )


def score(obj: object) -> dict | list:
    """Score match records (SPEC 4.5 ``score``)."""
    return answer("score", obj)


def check(obj: object) -> dict | list:
    """Rule on one play, a tribute, a throw… (SPEC 4.5 ``check``)."""
    return answer("check", obj)


def classify(obj: object) -> dict | list:
    """List every reading of a set of cards (SPEC 4.5 ``classify``)."""
    return answer("classify", obj)


__all__ = ["ACTIONS", "GAMES", "answer", "check", "classify", "game_module", "has_errors", "score"]
