"""A lead's units and how well a set of cards answers them (SPEC 4.3, seed 三.2(4)).

A lead is read as its *units*: the runs of its shape (:func:`forms.shape_of`), each a
tractor of triples or of pairs, a triple or a pair; its singles carry no duty beyond the
suit. A normal form is one unit; a throw (甩牌) is several. The units are answered one by
one in this order: tractors first, the longest first (of equal length, triples before
pairs), then triples, then pairs.

One unit ``(width, length)`` alone is answered as the seed orders a follow of that form
(:mod:`.follow`): the best *piece* of the follower's cards is the shape
:func:`forms.shape_of` reads with the unit's triples and pairs as caps (a pair standing
for a triple that cannot be matched). A pair is answered by a pair; a triple by a triple,
else a pair; a tractor by a tractor, else by a shorter tractor and pairs, else loose pairs;
a tractor of two triples by a. two triples, b. a triple, a pair, c. a triple, d. a tractor
of pairs, e. two loose pairs, f. a pair.

Several units are answered *unit by unit*: the answer of a set of cards is the best
sequence of pieces, one per unit in the order above, out of disjoint cards, compared unit
by unit (the first unit's piece first). So a throw of two tractors of two pairs is
answered by two tractors of two pairs when the hand holds them — not by a tractor of
three pairs and a loose pair, which leaves the second led tractor without a tractor. This
is the reading of rbtying/shengji's ``TrickFormat::is_legal_play`` (the format's own
units first, then coarser decompositions): the play must match the first requirement the
hand can match.

A follow is legal when its cards of the led suit answer the units as well as the hand's
cards of that suit do (:func:`answer`); the flexible kill of a throw is a set of trumps
whose answer is perfect (:func:`perfect`): every unit laid out in its own form.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from rules_engine.cards import Card
from rules_engine.i18n import Text, t
from rules_engine.tractor.forms import Shape, shape_of
from rules_engine.tractor.order import Ordering

# the piece answering one unit: (triple run lengths, pair run lengths), longest first
Piece = tuple[tuple[int, ...], tuple[int, ...]]
NOTHING: Piece = ((), ())


@dataclass(frozen=True)
class Unit:
    """One unit of a lead: ``width`` 2 (pairs) or 3 (triples), ``length`` consecutive."""

    width: int
    length: int

    @property
    def caps(self) -> tuple[int, int]:
        """(triple cap, pair cap) of :func:`forms.shape_of` for this unit alone."""
        return (self.length, 0) if self.width == 3 else (0, self.length)

    @property
    def perfect(self) -> Piece:
        return ((self.length,), ()) if self.width == 3 else ((), (self.length,))

    def describe(self) -> Text:
        return describe_piece(self.perfect)


def describe_piece(piece: Piece) -> Text:
    return Shape(*piece).describe() if piece != NOTHING else t("only singles")


def _priority(unit: Unit) -> tuple[bool, int, int]:
    return unit.length > 1, unit.length, unit.width


def lead_units(lead: Iterable[Card], ordering: Ordering) -> tuple[Unit, ...]:
    """The units of a lead, in the order they are answered."""
    shape = shape_of(lead, ordering)
    units = [Unit(3, n) for n in shape.triples] + [Unit(2, n) for n in shape.pairs]
    return tuple(sorted(units, key=_priority, reverse=True))


def perfect(units: tuple[Unit, ...]) -> tuple[Piece, ...]:
    """The answer of the lead itself: every unit in its own form."""
    return tuple(unit.perfect for unit in units)


def answer(cards: Iterable[Card], units: tuple[Unit, ...], ordering: Ordering) -> tuple:
    """The best answer of ``cards`` (one suit) to ``units``: one piece per unit, out of
    disjoint cards, the sequence of pieces as big as it can be, unit by unit."""
    items = tuple(sorted(Counter(cards).items(), key=lambda item: _card_order(item[0])))
    return _answer(items, units, ordering)


def _card_order(card: Card) -> tuple[str, str]:
    return card.rank or "", card.suit or ""


@lru_cache(maxsize=50_000)
def _answer(items: tuple, units: tuple[Unit, ...], ordering: Ordering) -> tuple:
    if not units:
        return ()
    held = Counter(dict(items))
    unit, rest = units[0], units[1:]
    piece = _best_piece(held, unit, ordering)
    if not rest:
        return (piece,)
    best_rest = None
    for used in placements(held, plan_of(piece), ordering):
        left = held - used
        key = tuple(sorted(left.items(), key=lambda item: _card_order(item[0])))
        got = _answer(key, rest, ordering)
        if best_rest is None or got > best_rest:
            best_rest = got
            if got == perfect(rest):
                break
    return (piece, *(best_rest or ()))


def _best_piece(held: Counter, unit: Unit, ordering: Ordering) -> Piece:
    triple_cap, pair_cap = unit.caps
    return shape_of(held.elements(), ordering, triple_cap, pair_cap).rank


def plan_of(piece: Piece) -> list[tuple[int, int]]:
    """The runs of a piece as (cards per unit, run length)."""
    triples, pairs = piece
    return [(3, k) for k in triples] + [(2, k) for k in pairs]


def answer_plan(answer_: tuple) -> list[tuple[int, int]]:
    """Every run of an answer's pieces: what a play giving that answer holds (runs of one
    form next to each other, for :func:`placements`)."""
    return sorted((run for piece in answer_ for run in plan_of(piece)), reverse=True)


def placements(
    held: Counter, plan: list[tuple[int, int]], ordering: Ordering, floor: tuple | None = None
) -> Iterator[Counter]:
    """Each way to take the runs of ``plan`` out of ``held``: a Counter of the cards used.
    Runs of the same form follow each other in the plan and are placed in increasing order
    (``floor``: where the run before of this form stood), so that a set of runs is yielded
    once, not once per order of its runs."""
    if not plan:
        yield Counter()
        return
    (width, length), rest = plan[0], plan[1:]
    same_next = bool(rest) and rest[0] == plan[0]
    by_position: dict[int, list[Card]] = {}
    for card, n in held.items():
        if n >= width:
            by_position.setdefault(ordering.position(card), []).append(card)
    for options in by_position.values():
        options.sort(key=_card_order)
    for start in sorted(by_position):
        if not all(start + i in by_position for i in range(length)):
            continue
        for choice in _choices([by_position[start + i] for i in range(length)]):
            where = (start, tuple(_card_order(card) for card in choice))
            if floor is not None and where < floor:
                continue
            used = Counter({card: width for card in choice})
            for more in placements(held - used, rest, ordering, where if same_next else None):
                yield used + more


def _choices(options: list[list[Card]]) -> Iterator[tuple]:
    if not options:
        yield ()
        return
    for first in options[0]:
        for rest in _choices(options[1:]):
            yield (first, *rest)
