"""Every legal follow of a tractor hand to a lead, kills included (SPEC 4.5 ``"list"``).

Strongest first: kills (by the trick's order), then follows of the led suit by shape and
top card, then the other cards (strongest cards first). Holding the led suit, the plays
are those that answer the lead's units as well as the hand allows, unit by unit
(:mod:`.follow`, :mod:`.units`);
holding fewer cards of it than were led, every one of them plus any other cards; void,
any cards."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from rules_engine.cards import Card, cards_text
from rules_engine.errors import RulesError
from rules_engine.i18n import t
from rules_engine.listing import count_multisets, listing, multiset_combinations
from rules_engine.tractor.follow import is_kill, lead_suit, special_beats
from rules_engine.tractor.forms import form_of, shape_of
from rules_engine.tractor.order import TRUMP, Ordering
from rules_engine.tractor.units import answer, answer_plan, lead_units, placements

SUIT_ORDER = {TRUMP: 4, "S": 3, "H": 2, "C": 1, "D": 0}
SEARCH_LIMIT = 200_000  # candidate plays one listing may look at


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
    if len(held) > size and not _duty_plan(ordering, held, lead):
        # nothing to answer with but singles: any cards of the suit
        items = _strength_order(held, ordering)
        plays = (_entry(c, ordering, "follow") for c in multiset_combinations(items, size))
        return plays, count_multisets((n for _, n in items), size)
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
    others = (
        _entry(combo, ordering, "discard")
        for combo in multiset_combinations(everything, size)
        if not is_kill(list(combo), lead, ordering, kill_reading)
    )
    return _chain((_entry(k, ordering, "kill") for k in kills), others), total


def _chain(first: Iterator, rest: Iterator) -> Iterator:
    yield from first
    yield from rest


def _suit_follows(ordering: Ordering, held: list[Card], lead: list[Card]) -> Iterator[dict]:
    size = len(lead)
    if len(held) == size:
        yield _entry(tuple(held), ordering, "follow")
        return
    units = lead_units(lead, ordering)
    best = answer(held, units, ordering)
    found = []
    for combo in _built(Counter(held), answer_plan(best), size, ordering):
        got = answer(combo, units, ordering)
        if got >= best:
            top = max(ordering.position(card) for card in combo)
            found.append((got, top, combo))
    found.sort(key=lambda item: (item[0], item[1], _names(item[2])), reverse=True)
    for _, _, combo in found:
        yield _entry(combo, ordering, "follow")


def _duty_plan(ordering: Ordering, held: list[Card], lead: list[Card]) -> list[tuple[int, int]]:
    """The runs (cards per unit, length) the follower's best answer to the lead holds."""
    return answer_plan(answer(held, lead_units(lead, ordering), ordering))


def _names(combo: tuple) -> tuple[str, ...]:
    return tuple(sorted(cards_text(combo)))


def _built(
    held: Counter, plan: list[tuple[int, int]], size: int, ordering: Ordering, distinct=False
):
    """Every distinct play of ``size`` cards from ``held`` that holds the runs of ``plan``
    ((cards per unit, run length) each), the rest of the cards being any others (with
    ``distinct``, other cards each once and none of the runs' cards: what a play of exactly
    the plan's shape needs). A play whose shape has these runs is among them, so the search
    never looks at the plays that cannot have the shape (far fewer than every subset of a
    25-trump hand). RulesError when even that is more than can be listed at a desk."""
    seen = set()
    singles = size - sum(width * length for width, length in plan)
    if singles < 0:
        return
    budget = SEARCH_LIMIT
    for used in placements(held, plan, ordering):
        rest = held - used
        if distinct:
            rest = Counter({card: 1 for card in rest if card not in used})
        budget -= count_multisets(rest.values(), singles)
        if budget < 0:
            raise RulesError(
                t(
                    "too many possible plays to list ({limit} or more): give a smaller hand",
                    limit=SEARCH_LIMIT,
                ),
                "hand",
            )
        for extra in multiset_combinations(_strength_order(rest.elements(), ordering), singles):
            combo = tuple(sorted([*used.elements(), *extra], key=_card_key(ordering), reverse=True))
            key = _names(combo)
            if key not in seen:
                seen.add(key)
                yield combo


def _kills(ordering: Ordering, hand: list[Card], lead: list[Card], kill_reading: str):
    """The kills of the lead, strongest first (lazily: a void hand of 25 trumps against an
    8-card throw has tens of thousands)."""
    trumps = Counter(c for c in hand if ordering.suit_of(c) == TRUMP)
    lead_shape, lead_form = shape_of(lead, ordering), form_of(lead, ordering)
    plan = [(3, k) for k in lead_shape.triples] + [(2, k) for k in lead_shape.pairs]
    found = []
    if lead_form is not None and (lead_form.unit, lead_form.length) == (2, 3):
        # the special rule: two consecutive triples kill three pairs (and beat their kills)
        found += [
            k
            for k in _built(trumps, [(3, 2)], len(lead), ordering)
            if is_kill(list(k), lead, ordering, kill_reading)
        ]
    distinct = kill_reading == "strict" or lead_form is not None
    if distinct and len(plan) <= 1:
        # one run (or none) and other cards each once, none of the run's: exactly the
        # lead's shape, so every such play is a kill; listed by the run's top card
        found.sort(key=lambda k: (_kill_key(k, lead_form, ordering), _names(k)), reverse=True)
        yield from found
        yield from _sure_kills(trumps, plan, len(lead), ordering)
        return
    seen = {_names(k) for k in found}
    for combo in _built(trumps, plan, len(lead), ordering, distinct):
        if _names(combo) not in seen and is_kill(list(combo), lead, ordering, kill_reading):
            seen.add(_names(combo))
            found.append(combo)
    # strongest first, as the trick orders kills: the special 3+3, then the highest card
    # among the biggest units
    found.sort(key=lambda k: (_kill_key(k, lead_form, ordering), _names(k)), reverse=True)
    yield from found


def _sure_kills(trumps: Counter, plan, size: int, ordering: Ordering) -> Iterator[tuple]:
    key = _card_key(ordering)
    ways = sorted(
        placements(trumps, plan, ordering),
        key=lambda used: sorted((key(c) for c in used), reverse=True),
        reverse=True,
    )
    singles = size - sum(width * length for width, length in plan)
    for used in ways:
        rest = [
            (card, 1)
            for card, _ in _strength_order(trumps.elements(), ordering)
            if card not in used
        ]
        for extra in multiset_combinations(rest, singles):
            yield tuple(sorted([*used.elements(), *extra], key=key, reverse=True))


def _kill_key(kill: tuple, lead_form, ordering: Ordering) -> tuple[bool, int]:
    copies = Counter(kill)
    biggest = max(copies.values())
    top = max(ordering.position(card) for card, n in copies.items() if n == biggest)
    return special_beats(form_of(list(kill), ordering), lead_form), top


def list_follows(ordering: Ordering, hand: list[Card], lead: list[Card], kill_reading: str) -> dict:
    plays, total = legal_follows(ordering, hand, lead, kill_reading)
    return listing(plays, total)
