"""Which cards are trump in a tractor deal and how every card ranks (SPEC 4.3).

Trump (主) is every joker, every level card (级牌) and every card of the trump suit. The
trump suit may be None (no trump suit: jokers and level cards only).

Each card gets a *suit key* (its own suit, or ``"T"`` for every trump) and a *position*:
cards of one suit key are ordered by position, and consecutive positions join into
tractors. In a plain suit the positions run 2..A skipping the level rank. In trump they run
through the trump suit (2..A, skipping the level rank), then the level cards of the other
suits (all on one shared position: equal in strength, never a pair with each other), then
the trump suit's level card, then the small joker, then the big joker. So a pair of trump
aces, a pair of another suit's level card and a pair of the trump level card make a
tractor. There is no wrap from A down to 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from rules_engine.cards import DECK, RANKS, SUITS, Card, parse_card, parse_level
from rules_engine.errors import RulesError
from rules_engine.i18n import t

TRUMP = "T"
DECKS = 3
BOTTOM_SIZE = 6  # the bottom (底牌) of three decks: 162 cards, 6 buried, 39 to each seat
HAND_SIZE = (DECKS * 54 - BOTTOM_SIZE) // 4
SUIT_NAMES = {
    "S": t("spades"),
    "H": t("hearts"),
    "C": t("clubs"),
    "D": t("diamonds"),
    TRUMP: t("trump"),
}


@dataclass(frozen=True)
class Ordering:
    """The trump suit (None for no trump suit) and the level rank of one deal."""

    trump: str | None
    level: str

    def suit_of(self, card: Card) -> str:
        return _table(self.trump, self.level)[card][0]

    def position(self, card: Card) -> int:
        return _table(self.trump, self.level)[card][1]

    def key(self, card: Card) -> tuple[str, int]:
        """(suit key, position) of a card."""
        return _table(self.trump, self.level)[card]

    def is_trump(self, card: Card) -> bool:
        return self.suit_of(card) == TRUMP


@cache
def _table(trump: str | None, level: str) -> dict[Card, tuple[str, int]]:
    plain = [rank for rank in RANKS if rank != level]
    table: dict[Card, tuple[str, int]] = {}
    for card in DECK:
        if card.is_joker:
            table[card] = (TRUMP, 15 if card.rank == "BJ" else 14)
        elif card.rank == level:
            # other suits' level cards share position 12 (13 when there is no trump suit,
            # so that they still join the small joker's pair)
            table[card] = (TRUMP, 13 if card.suit == trump or trump is None else 12)
        elif card.suit == trump:
            table[card] = (TRUMP, plain.index(card.rank))
        else:
            table[card] = (card.suit, plain.index(card.rank))
    return table


def parse_trump(value: object, field: str = "trump") -> str | None:
    """A trump suit ``S H C D`` (symbols and Chinese names too), or None / ``"NT"`` for none."""
    if value is None or (isinstance(value, str) and value.strip().upper() in ("NT", "NONE", "")):
        return None
    if isinstance(value, str):
        try:
            card = parse_card(value.strip() + "2", field)
        except RulesError:
            card = None
        if card is not None and card.suit in SUITS:
            return card.suit
    raise RulesError(
        t(
            '{field} must be a suit S, H, C or D (or "NT" for none), not {value!r}',
            field=field,
            value=value,
        ),
        field,
    )


def parse_ordering(request: dict) -> Ordering:
    """The Ordering of a request's ``trump`` and ``level`` fields."""
    if "trump" not in request:
        raise RulesError(t('trump is missing: give the trump suit S, H, C or D, or "NT"'), "trump")
    level = RANKS[parse_level(request.get("level"), "level")]
    return Ordering(parse_trump(request.get("trump")), level)
