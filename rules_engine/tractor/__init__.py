"""拖拉机 Tractor with three decks (SPEC 4.3): the rules of play and the match scoring.

``score(record)`` scores a match record and ``check(request)`` rules on one play, both in
the JSON of SPEC 4.5. A check request is one of:

* a follow: ``{"trump", "level", "hand", "lead", "play"}`` (``hand`` before the play);
* a lead: ``{"trump", "level", "hand", "play"}`` without ``lead`` (a normal form; several
  units are a throw, to be checked with ``throw`` and ``others``);
* a throw: ``{"trump", "level", "throw", "others": [[...], [...], [...]]}``;
* a trump declaration: ``{"level", "declarations": [{"seat": "E", "cards": ["S5"]}, ...],
  "first_deal"?: true, "dealer"?: "E"}`` (after the first deal the suit changes and the
  dealer stays);
* a whole deal's play log: ``{"trump", "level", "dealer", "hands", "bottom"?, "play_log"}``
  (see :mod:`rules_engine.tractor.replay`);
* who wins one trick: ``{"trump", "level", "trick": [{"seat": "E", "cards": [...]}, ...]}``
  (the lead first, in the order played) -> ``{"winner", "index", "points", "kill"}``.

``preset`` and ``settings`` may be given as in a match record; ``tractor_kill_reading``
("strict" or "flexible") decides how a kill of a throw is read.

``trump`` is a suit, or ``"NT"`` for no trump suit. Copies are counted across all the
cards of one request (three decks).
"""

from __future__ import annotations

from rules_engine.cards import check_in_hand, count_copies, parse_cards, parse_hand
from rules_engine.errors import RulesError, sub_field
from rules_engine.i18n import t
from rules_engine.listing import wants_list
from rules_engine.presets import resolve_preset
from rules_engine.tractor.declare import check_declarations
from rules_engine.tractor.follow import check_follow
from rules_engine.tractor.forms import Form, Shape, form_of, shape_of
from rules_engine.tractor.legal import list_follows
from rules_engine.tractor.order import DECKS, HAND_SIZE, Ordering, parse_ordering
from rules_engine.tractor.replay import replay, trick_answer
from rules_engine.tractor.scoring import deal_outcome, score
from rules_engine.tractor.throw import check_throw
from rules_engine.tractor.trick import trick_winner

__all__ = [
    "Form",
    "Ordering",
    "Shape",
    "check",
    "check_declarations",
    "check_follow",
    "check_throw",
    "deal_outcome",
    "form_of",
    "score",
    "shape_of",
    "trick_winner",
]


def _cards(request: dict, name: str, field: str | None = None) -> list:
    return parse_cards(request.get(name), DECKS, field or name)


def _hand(value: object, field: str) -> list:
    return parse_hand(value, DECKS, HAND_SIZE, field)


def _copies(*lists: list) -> None:
    count_copies(lists, DECKS, "cards")


def check(request: dict) -> dict:
    """Rule on a follow, a lead, a throw or a trump declaration (SPEC 4.5 ``check``)."""
    if "declarations" in request:
        return check_declarations(
            request.get("level"),
            request["declarations"],
            request.get("first_deal", True),
            request.get("dealer"),
        )
    ordering = parse_ordering(request)
    kill_reading = resolve_preset(request, "tractor").tractor_kill_reading
    if "play_log" in request:
        return replay(request, ordering, kill_reading)
    if "trick" in request:
        return trick_answer(request.get("trick"), ordering, kill_reading)
    if "throw" in request:
        throw = _cards(request, "throw")
        others = request.get("others")
        if not isinstance(others, list) or not 1 <= len(others) <= 3:
            raise RulesError(
                t("others must be a list of the other players' hands (up to 3)"), "others"
            )
        hands = [_hand(h, sub_field("others", i)) for i, h in enumerate(others)]
        _copies(throw, *hands)
        return check_throw(ordering, throw, hands)
    if wants_list(request) and request.get("lead"):
        hand = _hand(request.get("hand"), "hand")
        lead = _cards(request, "lead")
        _copies(hand, lead)
        answer = list_follows(ordering, hand, lead, kill_reading)
        if "play" in request:
            answer = (
                check_follow(ordering, hand, lead, _cards(request, "play"), kill_reading) | answer
            )
        return answer
    if "play" not in request:
        raise RulesError(t("the request needs play (with hand), throw or declarations"), "play")
    hand = _hand(request.get("hand"), "hand")
    play = _cards(request, "play")
    if request.get("lead"):
        lead = _cards(request, "lead")
        _copies(hand, lead)
        return check_follow(ordering, hand, lead, play, kill_reading)
    return check_lead(ordering, hand, play)


def check_lead(ordering: Ordering, hand: list, play: list) -> dict:
    """A lead is legal when it is one normal form of one suit."""
    check_in_hand(play, hand)
    if not play:
        raise RulesError(t("play is empty: give the cards played"), "play")
    form = form_of(play, ordering)
    if form is not None:
        return {
            "legal": True,
            "reason": t("leads {shape}", shape=form.describe()),
            "form": form.kind,
        }
    if len({ordering.suit_of(card) for card in play}) > 1:
        return {"legal": False, "reason": t("a lead is all of one suit (trump is one suit)")}
    return {
        "legal": False,
        "reason": t("several units of one suit are a throw: check it with throw and others"),
        "form": "throw",
    }
