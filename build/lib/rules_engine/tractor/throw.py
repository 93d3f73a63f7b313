"""Throws (甩牌) and their penalty (SPEC 4.3, seed 三.3).

A throw is several units of one suit played at once. The seed's "absolute biggest" rule:
every thrown card, whatever unit it belongs to, must be at least as big as the biggest
card of that suit in every other hand. A thrown card another player beats with a
strictly bigger card fails (an equal card, such as another suit's level card in trump,
does not make it fail). The penalty is 10 points per failing card, counted per card (a
failing pair is 2 cards, a triple 3), and the thrower must play the smallest thrown card
alone (broken out of its pair, triple or tractor).
"""

from __future__ import annotations

from rules_engine.cards import Card, card_text, cards_text
from rules_engine.errors import RulesError
from rules_engine.i18n import t
from rules_engine.tractor.forms import suit_of_cards
from rules_engine.tractor.order import SUIT_NAMES, Ordering

PENALTY_PER_CARD = 10


def penalty_points(failing_cards: int, per_card: int = PENALTY_PER_CARD) -> int:
    """The "10 x X" rule: points for a failed throw of ``failing_cards`` cards."""
    return per_card * failing_cards


def check_throw(ordering: Ordering, throw: list[Card], others: list[list[Card]]) -> dict:
    """Rule on a throw against the three other hands."""
    if not throw:
        raise RulesError(t("throw is empty: give the thrown cards"), "throw")
    suit = suit_of_cards(throw, ordering)
    if suit is None:
        raise RulesError(
            t("throw {cards} mixes suits: a throw is all of one suit", cards=cards_text(throw)),
            "throw",
        )
    rivals = [ordering.position(c) for hand in others for c in hand if ordering.suit_of(c) == suit]
    biggest = max(rivals, default=-1)
    failing = [card for card in throw if ordering.position(card) < biggest]
    if not failing:
        return {
            "legal": True,
            "reason": t(
                "every thrown card is at least as big as any other {suit_name}",
                suit_name=SUIT_NAMES[suit],
            ),
            "penalty_points": 0,
            "forced_play": [],
            "failing_cards": [],
        }
    smallest = min(throw, key=ordering.position)
    beaten_by = max(
        (c for hand in others for c in hand if ordering.suit_of(c) == suit),
        key=ordering.position,
    )
    return {
        "legal": False,
        "reason": (
            t(
                "throw fails: {count} card(s) are smaller than {card} held by another player; {card2} must be played alone",
                count=len(failing),
                card=card_text(beaten_by),
                card2=card_text(smallest),
            )
        ),
        "penalty_points": penalty_points(len(failing)),
        "forced_play": [card_text(smallest)],
        "failing_cards": cards_text(failing),
    }
