"""Generate a legal guandan deal (hands and a complete play log) from a random seed.

A plain strategy: lead the lowest group of equal cards (up to a triple); follow with the
lowest group of the same size that beats the trick, else pass. The engine's own replay
state runs the turns, so every generated log is legal by construction. Used by the bench
and by property tests.
"""

from __future__ import annotations

import random
from collections import defaultdict

from rules_engine.cards import DECK, Card
from rules_engine.guandan.combos import card_value, level_index
from rules_engine.guandan.replay import DealState, Play
from rules_engine.guandan.seats import PLAY_ORDER


def deal_hands(seed: int) -> dict[str, list[Card]]:
    """Two shuffled decks, 27 cards to each seat."""
    cards = list(DECK) * 2
    random.Random(seed).shuffle(cards)
    return {seat: cards[i * 27 : (i + 1) * 27] for i, seat in enumerate(PLAY_ORDER)}


def _groups(hand, level: int) -> list[tuple[int, list[Card]]]:
    by_value = defaultdict(list)
    for card, copies in hand.items():
        by_value[card_value(card, level)] += [card] * copies
    return sorted(by_value.items(), key=lambda item: item[0])


def _choose(deal: DealState, seat: str) -> Play:
    groups = _groups(+deal.hands[seat], deal.level)
    top = deal.top
    if top is None:
        value, cards = groups[0]
        return Play(seat, tuple(cards[:3]))
    if top.kind not in ("single", "pair", "triple"):
        return Play(seat, ())
    for value, cards in groups:
        if value > top.value and len(cards) >= top.size:
            return Play(seat, tuple(cards[: top.size]))
    return Play(seat, ())


def sample_deal(seed: int, level: object = "2") -> tuple[dict[str, list[Card]], list[Play]]:
    """A random deal and the complete, legal play log of it (E leads)."""
    hands = deal_hands(seed)
    deal = DealState(hands, level_index(level), "E")
    log = []
    while not deal.over():
        play = _choose(deal, deal.turn)
        deal.apply(play, "sample")
        log.append(play)
    return hands, log
