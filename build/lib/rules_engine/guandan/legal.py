"""Every distinct legal Guandan play from a hand (SPEC 4.5 ``"list"``): every play that
beats ``previous`` (bombs included), or every lead.

A play is told apart by its reading (kind, rank, size), the natural ranks it uses, how
many wild cards (the heart level card, 逢人配) it uses, and for a straight flush its
suit; one set of the hand's cards stands for it. Suits are otherwise interchangeable, so
S9 H9 and C9 D9 are the same pair. Strongest first: bombs by the bomb order, then by
rank; among equal readings, fewer wild cards first.

The candidates are built from the hand's counts (no search over subsets), so a 27-card
hand with two wild cards lists in a few milliseconds (bench/rules_engine.py).
"""

from __future__ import annotations

from collections.abc import Iterator

from rules_engine.cards import Card, cards_text
from rules_engine.guandan.combos import (
    BJ,
    HIGH_ACE,
    KINDS,
    LJ,
    Reading,
    is_wild,
    rank_of,
    reading_beats,
    run_rank,
    run_reading,
    same_rank_reading,
    strength,
)

SUIT_ORDER = ("S", "C", "D", "H")


class _Hand:
    def __init__(self, hand: list[Card], level: int) -> None:
        self.level = level
        self.wilds = [card for card in hand if is_wild(card, level)]
        self.by_rank: list[list[Card]] = [[] for _ in range(15)]
        for card in hand:
            if not is_wild(card, level):
                self.by_rank[rank_of(card)].append(card)
        for cards in self.by_rank:
            cards.sort(key=lambda c: SUIT_ORDER.index(c.suit) if c.suit else 0)

    def count(self, rank: int) -> int:
        return len(self.by_rank[rank])

    def of_suit(self, rank: int, suit: str) -> list[Card]:
        return [card for card in self.by_rank[rank] if card.suit == suit]


def _same_rank_plays(hand: _Hand) -> Iterator[tuple[Reading, list[Card]]]:
    level, w = hand.level, len(hand.wilds)
    for rank in range(15):
        held = hand.count(rank)
        joker = rank >= LJ
        for size in range(1, 11):
            kind = {1: "single", 2: "pair", 3: "triple"}.get(size, "bomb")
            if joker and size > 2:
                break
            for wild in range(0, min(w, size) + 1):
                natural = size - wild
                if natural > held or (joker and wild):
                    continue
                if natural == 0 and rank != level:
                    continue
                cards = hand.by_rank[rank][:natural] + hand.wilds[:wild]
                yield same_rank_reading(kind, rank, size, level), cards
    if hand.count(LJ) == 2 and hand.count(BJ) == 2:
        yield Reading("joker_bomb", "BJ", 4, 0), hand.by_rank[LJ] + hand.by_rank[BJ]


def _full_houses(hand: _Hand) -> Iterator[tuple[Reading, list[Card]]]:
    level, w = hand.level, len(hand.wilds)
    for triple in range(LJ):
        for pair in range(15):
            if pair == triple:
                continue
            for kt in range(0, min(3, hand.count(triple)) + 1):
                for kp in range(0, min(2, hand.count(pair)) + 1):
                    wild = 5 - kt - kp
                    if wild > w or (kt == 0 and triple != level) or (kp == 0 and pair != level):
                        continue
                    if pair >= LJ and kp != 2:
                        continue
                    cards = hand.by_rank[triple][:kt] + hand.by_rank[pair][:kp] + hand.wilds[:wild]
                    yield same_rank_reading("full_house", triple, 5, level), cards


def _runs(hand: _Hand, length: int, width: int, kind: str, suit: str | None = None):
    w = len(hand.wilds)
    size = length * width

    def held(rank: int) -> list[Card]:
        return hand.of_suit(rank, suit) if suit else hand.by_rank[rank]

    for start in range(0, HIGH_ACE - length + 2):
        ranks = [run_rank(pos) for pos in range(start, start + length)]
        options = [range(min(width, len(held(rank))), -1, -1) for rank in ranks]
        for naturals in _product(options):
            wild = size - sum(naturals)
            if wild > w:
                continue
            cards = [c for rank, n in zip(ranks, naturals, strict=True) for c in held(rank)[:n]]
            yield run_reading(kind, start + length - 1, size), cards + hand.wilds[:wild]


def _product(options: list[range]) -> Iterator[tuple[int, ...]]:
    if not options:
        yield ()
        return
    for first in options[0]:
        for rest in _product(options[1:]):
            yield (first, *rest)


def _candidates(hand: _Hand) -> Iterator[tuple[Reading, list[Card]]]:
    yield from _same_rank_plays(hand)
    yield from _full_houses(hand)
    yield from _runs(hand, 5, 1, "straight")
    for suit in ("S", "H", "C", "D"):
        yield from _runs(hand, 5, 1, "straight_flush", suit)
    yield from _runs(hand, 3, 2, "tube")
    yield from _runs(hand, 2, 3, "plate")


def play_key(reading: Reading, cards: list[Card], level: int) -> tuple:
    """What tells plays apart: reading, natural ranks, wild count, a straight flush's suit."""
    natural = tuple(sorted(rank_of(c) for c in cards if not is_wild(c, level)))
    wilds = len(cards) - len(natural)
    suit = None
    if reading.kind == "straight_flush":
        suit = next(c.suit for c in cards if not is_wild(c, level)) if natural else "H"
    return (reading.kind, reading.rank, reading.size, natural, wilds, suit)


def legal_plays(hand: list[Card], level: int, previous: Reading | None) -> list[dict]:
    """Every distinct play of ``hand`` beating ``previous`` (every lead when None)."""
    found: dict[tuple, tuple[Reading, list[Card]]] = {}
    for reading, cards in _candidates(_Hand(hand, level)):
        if previous is not None and not reading_beats(reading, previous):
            continue
        found.setdefault(play_key(reading, cards, level), (reading, cards))
    ranked = sorted(
        found.items(),
        key=lambda item: (
            tuple(-x for x in strength(item[1][0])),
            item[0][4],  # fewer wild cards first
            item[0][3],  # then the smaller natural cards
            KINDS.index(item[1][0].kind),
        ),
    )
    return [
        {**reading.as_dict(), "cards": cards_text(cards), "wilds": key[4]}
        for key, (reading, cards) in ranked
    ]


__all__ = ["legal_plays", "play_key"]
