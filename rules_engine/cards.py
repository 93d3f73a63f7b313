"""Cards, suits, ranks and jokers, their notation and multi-deck copy counting.

Notation (SPEC 4.1): suit ``S H C D`` plus rank ``2..9 T J Q K A`` (``10`` is accepted for
``T``); jokers ``LJ`` (小王) and ``BJ`` (大王). On input, suit symbols (♠♥♣♦) and Chinese
suit names (黑桃, 红桃/红心, 梅花/草花, 方块/方片) are accepted, and case does not matter.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules_engine.errors import RulesError, sub_field
from rules_engine.i18n import t

SUITS = ("S", "H", "C", "D")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
JOKERS = ("LJ", "BJ")
PASSED_A = 13  # level index of a side that passed A

_SUIT_WORDS = {
    "S": "S",
    "H": "H",
    "C": "C",
    "D": "D",
    "♠": "S",
    "♥": "H",
    "♣": "C",
    "♦": "D",
    "♤": "S",
    "♡": "H",
    "♧": "C",
    "♢": "D",
    "黑桃": "S",
    "红桃": "H",
    "红心": "H",
    "梅花": "C",
    "草花": "C",
    "方块": "D",
    "方片": "D",
}
_JOKER_WORDS = {"LJ": "LJ", "BJ": "BJ", "小王": "LJ", "大王": "BJ", "小鬼": "LJ", "大鬼": "BJ"}
_RANK_WORDS = {rank: rank for rank in RANKS} | {"10": "T"}
_RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)} | {"10": 8, "LJ": 13, "BJ": 14}


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. ``suit`` is one of SUITS (None for a joker); ``rank`` one of RANKS,
    or ``"LJ"``/``"BJ"``. No order is implied: each game ranks cards its own way."""

    suit: str | None
    rank: str

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    def __str__(self) -> str:
        return card_text(self)

    def __repr__(self) -> str:
        return f"Card({card_text(self)})"


# One interned instance per card, so parsing is a dictionary look-up.
DECK: tuple[Card, ...] = tuple(Card(s, r) for s in SUITS for r in RANKS) + tuple(
    Card(None, j) for j in JOKERS
)
_PARSED: dict[str, Card] = {}


def card_text(card: Card) -> str:
    """SPEC notation with ``10`` for ten: ``"S10"``, ``"HA"``, ``"LJ"``."""
    if card.suit is None:
        return card.rank
    return card.suit + rank_text(card.rank)


def rank_text(rank: str) -> str:
    """``"T"`` -> ``"10"``; every other rank is written as it is."""
    return "10" if rank == "T" else rank


def rank_index(rank: str) -> int:
    """2=0 … A=12 (the SPEC's level count); jokers LJ=13, BJ=14."""
    try:
        return _RANK_INDEX[str(rank).upper()]
    except KeyError:
        raise RulesError(t("unknown rank {rank!r}", rank=rank)) from None


def level_text(index: int) -> str:
    """Level index to text: 0 -> ``"2"`` … 12 -> ``"A"``; 13 (passed A) is also ``"A"``."""
    if not 0 <= index <= PASSED_A:
        raise RulesError(t("level index {index} is outside 0..{top}", index=index, top=PASSED_A))
    return rank_text(RANKS[min(index, 12)])


# The names of the levels a side plays through, 2 up to A.
LEVEL_NAMES = tuple(rank_text(rank) for rank in RANKS)


def parse_level(text: object, field: str = "level") -> int:
    """``"2".."10"``, ``"T"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"`` (a JSON number 2..10 too) -> 0..12."""
    if isinstance(text, bool) or not isinstance(text, str | int):
        raise RulesError(
            t("{field} must be a level 2..10, J, Q, K or A, not {text!r}", field=field, text=text),
            field,
        )
    rank = _RANK_WORDS.get(str(text).strip().upper())
    if rank is None:
        raise RulesError(
            t("{field} must be a level 2..10, J, Q, K or A, not {text!r}", field=field, text=text),
            field,
        )
    return _RANK_INDEX[rank]


def _parse_uncached(text: str) -> Card | None:
    word = text.strip().upper()
    if word in _JOKER_WORDS:
        return Card(None, _JOKER_WORDS[word])
    for length in (2, 1):
        suit = _SUIT_WORDS.get(word[:length])
        if suit is not None:
            rank = _RANK_WORDS.get(word[length:].strip())
            return Card(suit, rank) if rank else None
    return None


def parse_card(text: object, field: str = "card") -> Card:
    """One card from text (``"S7"``, ``"s10"``, ``"♠7"``, ``"黑桃7"``, ``"大王"`` …), or a Card."""
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise RulesError(
            t(
                '{field}: a card is written as text such as "S7", not {text!r}',
                field=field,
                text=text,
            ),
            field,
        )
    card = _PARSED.get(text)
    if card is None:
        card = _parse_uncached(text)
        if card is None:
            raise RulesError(
                t(
                    "{field}: unknown card {text!r} (write a suit S/H/C/D or ♠♥♣♦ and a rank 2..10/T, J, Q, K, A, or LJ/BJ for the jokers)",
                    field=field,
                    text=text,
                ),
                field,
            )
        card = DECK[DECK.index(card)]  # the interned instance
        _PARSED[text] = card
    return card


def parse_cards(items: object, decks: int, field: str = "cards") -> list[Card]:
    """A list of card texts -> Cards; RulesError for an unknown card or too many copies."""
    if isinstance(items, str) or not isinstance(items, Sequence):
        raise RulesError(
            t('{field} must be a list of cards such as ["S7", "H10"]', field=field), field
        )
    cards = [parse_card(item, sub_field(field, i)) for i, item in enumerate(items)]
    count_copies([cards], decks, field)
    return cards


def parse_hand(items: object, decks: int, most: int, field: str = "hand") -> list[Card]:
    """A player's hand: :func:`parse_cards`, and no more cards than one hand of the game is
    dealt (``most``: 27 in guandan, 39 in tractor, 13 in the idiom chain)."""
    cards = parse_cards(items, decks, field)
    if len(cards) > most:
        raise RulesError(
            t(
                "{field} holds {count} cards; a hand of this game holds at most {most}",
                field=field,
                count=len(cards),
                most=most,
            ),
            field,
        )
    return cards


def count_copies(card_lists: Iterable[Iterable[Card]], decks: int, field: str = "cards") -> None:
    """Raise RulesError when a card appears more often, across all lists, than ``decks`` hold."""
    counts = Counter(card for cards in card_lists for card in cards)
    for card, copies in counts.items():
        if copies > decks:
            held = t("one deck holds") if decks == 1 else t("{decks} decks hold", decks=decks)
            raise RulesError(
                t(
                    "{field}: {card} appears {copies} times, more copies than {held}",
                    field=field,
                    card=card_text(card),
                    copies=copies,
                    held=held,
                ),
                field,
            )


def cards_text(cards: Iterable[Card]) -> list[str]:
    """A list of Cards in SPEC notation."""
    return [card_text(card) for card in cards]


def check_in_hand(play: Iterable[Card], hand: Iterable[Card], field: str = "play") -> None:
    """Raise RulesError naming the cards of ``play`` that ``hand`` does not hold."""
    missing = Counter(play) - Counter(hand)
    if missing:
        raise RulesError(
            t(
                "play holds {cards} which the hand does not",
                cards=", ".join(cards_text(missing.elements())),
            ),
            field,
        )
