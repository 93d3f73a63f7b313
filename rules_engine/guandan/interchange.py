"""Guandan's JSON requests (SPEC 4.5), as registered in :data:`rules_engine.api.GAMES`.

``score(record)``: a match record ``{"game", "preset", "settings"?, "deals": [{"finish"}],
"forfeit"}`` -> the SPEC answer with a ``trace`` entry per deal.

``classify(request)``: ``{"game", "level", "cards"}`` -> ``{"readings": [{kind, rank, size}]}``,
strongest first.

``check(request)`` rules on one of three things, chosen by the fields present:

- a play: ``{"level", "previous"?, "play", "previous_kind"?, "previous_rank"?}`` ->
  ``{"legal", "reason", "kind", "rank", "size", "previous"}``;
- a tribute: ``{"level", "hands": {seat: cards}, "finish": [previous deal], "tribute":
  [{"from", "to", "card"}], "return": [{"from", "to", "card"}]}`` (both empty for 抗贡) ->
  ``{"legal", "reason", "resisted", "payers", "leader"}``;
- a play log: ``{"level", "hands": {seat: cards}, "play_log": [{"seat", "cards"}], "leader"?}``
  -> ``{"legal", "reason", "finish", "complete", "plays", "index"?, "seat"?}``;
- ``"list": true`` with ``{"level", "hand", "previous"?}`` -> ``{"legal_plays": [{kind, rank,
  size, cards, wilds}], "count", "more"}`` (see :mod:`rules_engine.guandan.legal`).
"""

from __future__ import annotations

from rules_engine.cards import check_in_hand, count_copies, parse_cards, parse_hand
from rules_engine.errors import RulesError
from rules_engine.guandan.combos import Reading, beating_readings, choose_reading, level_index
from rules_engine.guandan.combos import classify as classify_cards
from rules_engine.guandan.hands import DECKS, HAND_SIZE, parse_hands
from rules_engine.guandan.legal import legal_plays
from rules_engine.guandan.replay import parse_log, replay_deal
from rules_engine.guandan.scoring import score_match
from rules_engine.guandan.seats import parse_seat
from rules_engine.guandan.tribute import TributeRules, check_tribute, parse_transfers
from rules_engine.i18n import Text, t, term
from rules_engine.listing import listing, wants_list
from rules_engine.presets import resolve_preset


def _level(request: dict) -> int:
    if "level" not in request:
        raise RulesError(t('the request has no "level" (the rank being played, 2..A)'), "level")
    return level_index(request["level"])


def score(record: dict) -> dict:
    return score_match(record)


def classify(request: dict) -> dict:
    level = _level(request)
    if "cards" not in request:
        raise RulesError(t('the request has no "cards" to classify'), "cards")
    cards = parse_cards(request["cards"], DECKS, "cards")
    return {"readings": [r.as_dict() for r in classify_cards(cards, level)]}


def check(request: dict) -> dict:
    if wants_list(request):
        return list_plays(request)
    if "play_log" in request:
        return check_log(request)
    if "tribute" in request or "return" in request:
        return check_tribute_request(request)
    return check_play(request)


def check_play(request: dict) -> dict:
    level = _level(request)
    if "play" not in request:
        raise RulesError(t('the request has no "play" to rule on'), "play")
    previous = parse_cards(request.get("previous") or [], DECKS, "previous")
    play = parse_cards(request["play"], DECKS, "play")
    count_copies([previous, play], DECKS, "previous and play")
    if request.get("hand") is not None:  # the whole hand before the play (SPEC 4.5)
        hand = parse_hand(request["hand"], DECKS, HAND_SIZE, "hand")
        count_copies([hand, previous], DECKS, "hand and previous")
        check_in_hand(play, hand)
    top = _top(request, previous, level)
    readings = classify_cards(play, level)
    if not readings:
        return _ruling(False, t("the play is not a valid combination"), None, play, top)
    beating = beating_readings(play, top, level) if top else readings
    if not beating:
        best = readings[0]
        return _ruling(
            False,
            t("{name} does not beat {name2}", name=_name(best), name2=_name(top)),
            best,
            play,
            top,
        )
    best = beating[0]
    reason = (
        t("{name} beats {name2}", name=_name(best), name2=_name(top))
        if top
        else t("{name} is a valid lead", name=_name(best))
    )
    return _ruling(True, reason, best, play, top)


def list_plays(request: dict) -> dict:
    """``"list": true``: every distinct play of ``hand`` that beats ``previous`` (or every
    lead), strongest first; with ``play`` also the ruling on it."""
    level = _level(request)
    if "hand" not in request:
        raise RulesError(t('listing legal plays needs the "hand" of the player'), "hand")
    hand = parse_hand(request["hand"], DECKS, HAND_SIZE, "hand")
    previous = parse_cards(request.get("previous") or [], DECKS, "previous")
    count_copies([hand, previous], DECKS, "hand and previous")
    top = _top(request, previous, level)
    answer = listing(legal_plays(hand, level, top))
    if "play" in request:
        check_in_hand(parse_cards(request["play"], DECKS, "play"), hand)
        answer = check_play(request) | answer
    return answer


def _top(request: dict, previous: list, level: int) -> Reading | None:
    """The reading of the play to beat (None for a lead); ``previous_kind``/``previous_rank``
    choose between readings where the cards allow several."""
    if not previous:
        return None
    readings = classify_cards(previous, level)
    return choose_reading(
        readings, request.get("previous_kind"), request.get("previous_rank"), "previous"
    )


def _name(reading: Reading) -> Text:
    return t("{kind} {rank}", kind=term(reading.kind), rank=reading.rank)


def _ruling(legal: bool, reason: str, reading: Reading | None, play: list, top) -> dict:
    return {
        "legal": legal,
        "reason": reason,
        "kind": reading.kind if reading else None,
        "rank": reading.rank if reading else None,
        "size": len(play),
        "previous": top.as_dict() if top else None,
    }


def check_tribute_request(request: dict) -> dict:
    level = _level(request)
    hands = parse_hands(request.get("hands"), "hands")
    if "finish" not in request:
        raise RulesError(t('the request has no "finish" of the previous deal'), "finish")
    ruling = check_tribute(
        hands,
        request["finish"],
        level,
        parse_transfers(request.get("tribute"), "tribute"),
        parse_transfers(request.get("return"), "return"),
        TributeRules.of(resolve_preset(request, "guandan")),
    )
    return ruling.as_dict()


def check_log(request: dict) -> dict:
    level = _level(request)
    hands = parse_hands(request.get("hands"), "hands")
    log = parse_log(request["play_log"])
    leader = request.get("leader")
    if leader is not None:
        leader = parse_seat(leader, "leader")
    return replay_deal(log, hands, level, leader).as_dict()
