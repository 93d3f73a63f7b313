"""Every legal follow of a tractor hand to a lead, kills included (SPEC 4.5 ``"list"``).

Strongest first: kills (by the trick's order), then follows of the led suit by shape and
top card, then the other cards (strongest cards first). Holding the led suit, the plays
are those whose shape answers the lead as well as the hand allows (:mod:`.follow`);
holding fewer cards of it than were led, every one of them plus any other cards; void,
any cards."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from rules_engine.cards import Card, cards_text
from rules_engine.listing import count_multisets, listing, multiset_combinations
from rules_engine.tractor.follow import is_kill, lead_caps, lead_suit, special_beats
from rules_engine.tractor.forms import form_of, shape_of
from rules_engine.tractor.order import TRUMP, Ordering

SUIT_ORDER = {TRUMP: 4, "S": 3, "H": 2, "C": 1, "D": 0}


def _card_key(ordering: Ordering):
    def key(card: Card):
        suit, position = ordering.key(card)
        return (SUIT_ORDER[suit], position, card.suit or "")

    return key


def _strength_order(cards, ordering: Ordering) -> list[tuple[Card, int]]:
    counts = Counter(cards)
    return [(c, counts[c]) for c in sorted(counts, key=_card_key(ordering), reverse=True)]


def _entry(play: tuple, ordering: Ordering, kind: str) -> dict:
    return {"cards": cards_text(sorted(play, key=_card_key(ordering), reverse=True)), "kind": kind}


def legal_follows(
    ordering: Ordering, hand: list[Card], lead: list[Card], kill_reading: str = "strict"
) -> tuple[Iterator[dict], int]:
    """(the legal follows strongest first, lazily; how many there are)."""
    suit = lead_suit(lead, ordering)
    size = len(lead)
    held = [card for card in hand if ordering.suit_of(card) == suit]
    rest = [card for card in hand if ordering.suit_of(card) != suit]
    if len(held) >= size:
        plays = list(_suit_follows(ordering, held, lead))
        return iter(plays), len(plays)
    if held:
        extra = _strength_order(rest, ordering)
        total = count_multisets((n for _, n in extra), size - len(held))
        plays = (
            _entry(tuple(held) + combo, ordering, "follow")
            for combo in multiset_combinations(extra, size - len(held))
        )
        return plays, total
    kills = _kills(ordering, hand, lead, kill_reading)
    everything = _strength_order(hand, ordering)
    total = count_multisets((n for _, n in everything), size)
    killing = {tuple(sorted(cards_text(k))) for k in kills}
    others = (
        _entry(combo, ordering, "discard")
        for combo in multiset_combinations(everything, size)
        if tuple(sorted(cards_text(combo))) not in killing
    )
    first = [_entry(k, ordering, "kill") for k in kills]
    return _chain(first, others), total


def _chain(first: list, rest: Iterator) -> Iterator:
    yield from first
    yield from rest


def _suit_follows(ordering: Ordering, held: list[Card], lead: list[Card]) -> Iterator[dict]:
    size = len(lead)
    if len(held) == size:
        yield _entry(tuple(held), ordering, "follow")
        return
    triple_cap, pair_cap = lead_caps(lead, ordering)
    best = shape_of(held, ordering, triple_cap, pair_cap).rank
    found = []
    for combo in multiset_combinations(_strength_order(held, ordering), size):
        shape = shape_of(combo, ordering, triple_cap, pair_cap)
        if shape.rank >= best:
            top = max(ordering.position(card) for card in combo)
            found.append((shape.rank, top, combo))
    found.sort(key=lambda item: (item[0], item[1]), reverse=True)
    for _, _, combo in found:
        yield _entry(combo, ordering, "follow")


def _kills(ordering: Ordering, hand: list[Card], lead: list[Card], kill_reading: str) -> list:
    trumps = _strength_order([c for c in hand if ordering.suit_of(c) == TRUMP], ordering)
    kills = [
        combo
        for combo in multiset_combinations(trumps, len(lead))
        if is_kill(list(combo), lead, ordering, kill_reading)
    ]
    # strongest first, as the trick orders kills: the special 3+3, then the highest card
    # among the biggest units
    lead_form = form_of(lead, ordering)
    kills.sort(key=lambda k: _kill_key(k, lead_form, ordering), reverse=True)
    return kills


def _kill_key(kill: tuple, lead_form, ordering: Ordering) -> tuple[bool, int]:
    copies = Counter(kill)
    biggest = max(copies.values())
    top = max(ordering.position(card) for card, n in copies.items() if n == biggest)
    return special_beats(form_of(list(kill), ordering), lead_form), top


def list_follows(ordering: Ordering, hand: list[Card], lead: list[Card], kill_reading: str) -> dict:
    plays, total = legal_follows(ordering, hand, lead, kill_reading)
    return listing(plays, total)
