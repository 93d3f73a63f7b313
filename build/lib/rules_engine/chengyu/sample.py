"""Sample deals of idiom-chain poker played legally, for tests, benches and demonstrations."""

from __future__ import annotations

import random
from collections.abc import Callable

from rules_engine.cards import Card
from rules_engine.chengyu.play import resolve_trick
from rules_engine.chengyu.ring import SEATS, Ring

SPADE_THREE = Card("S", "3")
Chooser = Callable[[list[Card]], Card]


def deal_hands(seed: int) -> dict[str, list[Card]]:
    """The 52 cards shuffled with ``seed`` and dealt 13 to each seat."""
    deck = Ring("S").order()
    random.Random(seed).shuffle(deck)
    return {seat: deck[i * 13 : i * 13 + 13] for i, seat in enumerate(SEATS)}


def play_deal(
    ring: Ring, hands: dict[str, list[Card]], choose: Chooser | None = None
) -> list[tuple[str, list[Card]]]:
    """Play 13 legal tricks from ``hands`` (not changed): the holder of ♠3 leads, each player
    plays ``choose(legal cards)`` (the first legal card by default)."""
    choose = choose or (lambda cards: cards[0])
    hands = {seat: list(cards) for seat, cards in hands.items()}
    leader = next(seat for seat, hand in hands.items() if SPADE_THREE in hand)
    tricks = []
    for _ in range(13):
        trick, played = resolve_trick(ring, leader, []), []
        for _ in range(4):
            hand = hands[trick.next_seat]
            card = choose([c for c in hand if not trick.ruling(hand, c)])
            hand.remove(card)
            trick.add(card)
            played.append(card)
        tricks.append((leader, played))
        leader = trick.winner
    return tricks
