"""Reading the four hands of a guandan request and taking cards out of a hand."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from rules_engine.cards import Card, card_text, count_copies, parse_hand
from rules_engine.errors import RulesError, sub_field
from rules_engine.guandan.seats import SEATS, parse_seat
from rules_engine.i18n import t

DECKS = 2
HAND_SIZE = DECKS * 54 // 4  # 27 cards to each seat (SPEC 4.2)


def parse_hands(value: object, field: str = "hands") -> dict[str, list[Card]]:
    """``{"E": [...], "S": [...], "W": [...], "N": [...]}`` -> Cards, copies counted across
    all four hands (two decks)."""
    if not isinstance(value, dict):
        raise RulesError(
            t("{field} must be an object with the hands of E, S, W and N", field=field), field
        )
    hands = {}
    for key, cards in value.items():
        seat = parse_seat(key, field)
        hands[seat] = parse_hand(cards, DECKS, HAND_SIZE, sub_field(field, seat))
    missing = [seat for seat in SEATS if seat not in hands]
    if missing:
        raise RulesError(
            t("{field}: the hand of {missing} is missing", field=field, missing=", ".join(missing)),
            field,
        )
    count_copies(hands.values(), DECKS, field)
    return hands


def missing_cards(hand: Counter, cards: Iterable[Card]) -> list[Card]:
    """The cards of ``cards`` that ``hand`` (a Counter) does not hold, copies counted."""
    need = Counter(cards)
    return [card for card, n in need.items() for _ in range(n - hand[card]) if n > hand[card]]


def take(hand: Counter, cards: list[Card], seat: str, field: str) -> None:
    """Remove ``cards`` from ``hand``; RulesError naming the cards the seat does not hold."""
    lacking = missing_cards(hand, cards)
    if lacking:
        names = " ".join(card_text(c) for c in lacking)
        raise RulesError(t("{seat} does not hold {names}", seat=seat, names=names), field)
    hand.subtract(cards)
