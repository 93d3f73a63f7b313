"""The ring of 52 cards of idiom-chain poker (SPEC 4.4).

Within a suit the ranks run A, 2, …, K and adjacent ranks chain (A next to 2). The K of a
suit chains to the A of the next suit of the suit ring and back (seed: ♦K → ♣A; default
ring ♦→♣→♥→♠→♦, a preset setting). That cross-suit link never applies when either card
is trump.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_engine.cards import SUITS, Card, parse_card
from rules_engine.errors import RulesError
from rules_engine.i18n import t
from rules_engine.presets import CHENGYU_SUIT_RING

RING_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SEATS = ("E", "N", "W", "S")  # order of play: counter-clockwise
SIDE_OF = {"E": "EW", "W": "EW", "N": "NS", "S": "NS"}


def parse_suit(value: object, field: str = "trump") -> str:
    """A suit S, H, C or D (♠♥♣♦ and the Chinese names too)."""
    try:
        suit = parse_card(f"{value.strip()}A", field).suit if isinstance(value, str) else None
    except RulesError:
        suit = None
    if suit is None:
        raise RulesError(
            t("{field} must be a suit S, H, C or D, not {value!r}", field=field, value=value), field
        )
    return suit


def parse_suit_ring(value: object, field: str = "suit_ring") -> tuple[str, ...]:
    """Four suits, each once, in ring order (K of each chains to A of the next)."""
    if value is None:
        return CHENGYU_SUIT_RING
    items = value if isinstance(value, list | tuple) else ()
    ring = tuple(parse_suit(s, field) if isinstance(s, str) else "?" for s in items)
    if sorted(ring) != sorted(SUITS):
        raise RulesError(
            t(
                "{field} must list the suits S, H, C, D once each, not {value!r}",
                field=field,
                value=value,
            ),
            field,
        )
    return ring


@dataclass(frozen=True)
class Ring:
    """The chaining rule of one deal: trump suit and suit ring."""

    trump: str
    suits: tuple[str, ...] = CHENGYU_SUIT_RING

    def index(self, card: Card) -> int:
        """Place of a card in the 52-card ring (♦A = 0 with the default ring)."""
        return self.suits.index(card.suit) * 13 + RING_RANKS.index(card.rank)

    def chains(self, head: Card, card: Card) -> bool:
        """True when ``card`` chains to the dragon head ``head``."""
        if head.suit == card.suit:
            return abs(RING_RANKS.index(head.rank) - RING_RANKS.index(card.rank)) == 1
        if self.trump in (head.suit, card.suit):
            return False
        distance = (self.index(card) - self.index(head)) % 52
        return distance in (1, 51)

    def is_trump(self, card: Card) -> bool:
        return card.suit == self.trump

    def order(self) -> list[Card]:
        """The 52 cards in ring order."""
        return [Card(suit, rank) for suit in self.suits for rank in RING_RANKS]
