"""Forms of play (SPEC 4.3): single, pair, triple, tractor; and the shape of any set of cards.

A *pair* is two identical cards and a *triple* three (three decks). A *tractor* is two or
more pairs, or two or more triples, on consecutive positions of one suit (see
:mod:`rules_engine.tractor.order`); pairs and triples never mix in one tractor (no
三拖二 / 二拖三).

The *shape* of a set of cards of one suit is read greedily, biggest units first: the
longest runs of triples, then the longest runs of pairs among the rest, the remaining
cards being singles. Shapes compare lexicographically: triples before pairs, and within
each, the longest run first, then the next, so a tractor beats loose units of the same
size. This order is the following priority of the seed (see :mod:`.follow`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from rules_engine.cards import Card
from rules_engine.i18n import Text, joined, t, term
from rules_engine.tractor.order import SUIT_NAMES, Ordering

UNLIMITED = 10**6


@dataclass(frozen=True, order=True)
class Shape:
    """Run lengths of triples and of pairs, each longest first, and the count of singles."""

    triples: tuple[int, ...] = ()
    pairs: tuple[int, ...] = ()
    singles: int = 0

    @property
    def rank(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """What following compares: triples first, then pairs (singles carry no duty)."""
        return self.triples, self.pairs

    def describe(self) -> Text:
        parts = [_triple_text(length) for length in self.triples]
        parts += [_pair_text(length) for length in self.pairs]
        if self.singles:
            parts.append(
                t("1 single") if self.singles == 1 else t("{singles} singles", singles=self.singles)
            )
        return joined(parts) if parts else t("nothing")


def _triple_text(length: int) -> Text:
    return t("a triple") if length == 1 else t("a tractor of {length} triples", length=length)


def _pair_text(length: int) -> Text:
    return t("a pair") if length == 1 else t("a tractor of {length} pairs", length=length)


@dataclass(frozen=True)
class Form:
    """A normal play: ``kind`` single/pair/triple/tractor, ``unit`` 1/2/3 cards, ``length``
    units, its suit key and ``top`` (position of its highest unit)."""

    kind: str
    unit: int
    length: int
    suit: str
    top: int

    def describe(self) -> Text:
        suit = SUIT_NAMES[self.suit]
        if self.kind == "tractor" and self.unit == 2:
            return t("a tractor of {length} pairs in {suit}", length=self.length, suit=suit)
        if self.kind == "tractor":
            return t("a tractor of {length} triples in {suit}", length=self.length, suit=suit)
        return t("a {kind} of {suit}", kind=term(self.kind), suit=suit)


def _positions(cards: Iterable[Card], ordering: Ordering) -> dict[int, list[int]]:
    """Position -> the copy counts of the distinct cards standing there."""
    by_position: dict[int, list[int]] = {}
    for card, copies in Counter(cards).items():
        by_position.setdefault(ordering.position(card), []).append(copies)
    return by_position


def _take_runs(capable: dict[int, int], cap: int) -> list[int]:
    """Greedily take the longest runs of consecutive capable positions, up to ``cap`` units.
    ``capable`` (position -> how many distinct cards there can give a unit) is consumed."""
    runs: list[int] = []
    while cap > 0:
        best_start, best_length = 0, 0
        start, length, previous = 0, 0, None
        for position in sorted(p for p, n in capable.items() if n > 0):
            if previous is not None and position == previous + 1:
                length += 1
            else:
                start, length = position, 1
            if length > best_length:
                best_start, best_length = start, length
            previous = position
        if best_length == 0:
            break
        take = min(best_length, cap)
        for position in range(best_start, best_start + take):
            capable[position] -= 1
        runs.append(take)
        cap -= take
    return runs


def shape_of(
    cards: Iterable[Card],
    ordering: Ordering,
    triple_cap: int = UNLIMITED,
    pair_cap: int = UNLIMITED,
) -> Shape:
    """The shape of a set of cards (one suit key assumed), with at most ``triple_cap`` triple
    units and ``pair_cap`` pair units plus one pair for every triple unit short of
    ``triple_cap`` (a pair is what answers a triple that cannot be matched)."""
    cards = list(cards)
    by_position = _positions(cards, ordering)
    triple_capable = {p: sum(1 for n in counts if n >= 3) for p, counts in by_position.items()}
    pair_only = {p: sum(1 for n in counts if n == 2) for p, counts in by_position.items()}
    triples = _take_runs(triple_capable, triple_cap)
    pair_capable = {p: triple_capable[p] + pair_only[p] for p in by_position}
    if triple_cap < UNLIMITED:
        pair_cap = min(UNLIMITED, pair_cap + triple_cap - sum(triples))
    pairs = _take_runs(pair_capable, pair_cap)
    singles = len(cards) - 3 * sum(triples) - 2 * sum(pairs)
    return Shape(tuple(sorted(triples, reverse=True)), tuple(sorted(pairs, reverse=True)), singles)


def suit_of_cards(cards: list[Card], ordering: Ordering) -> str | None:
    """The one suit key of all the cards, or None when they are of several suits."""
    suits = {ordering.suit_of(card) for card in cards}
    return suits.pop() if len(suits) == 1 else None


def form_of(cards: list[Card], ordering: Ordering) -> Form | None:
    """The form of a normal play, or None (several suits, or several units: a throw)."""
    suit = suit_of_cards(cards, ordering)
    if suit is None:
        return None
    top = max(ordering.position(card) for card in cards)
    if len(cards) == 1:
        return Form("single", 1, 1, suit, top)
    shape = shape_of(cards, ordering)
    runs = shape.triples + shape.pairs
    if shape.singles or len(runs) != 1:
        return None
    unit = 3 if shape.triples else 2
    length = runs[0]
    kind = "tractor" if length > 1 else ("triple" if unit == 3 else "pair")
    return Form(kind, unit, length, suit, top)
