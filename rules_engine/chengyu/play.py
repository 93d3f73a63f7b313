"""Turns, tricks and deals of idiom-chain poker (SPEC 4.4, seed 三–四).

The dragon head (龙头) is the last card led, chained or killed. On each turn a player:

1. must chain to the head if able (必出) — any card adjacent in the ring;
2. else, holding the head's suit, must discard (垫) a card of that suit;
3. else may play any card: a trump on a non-trump head is a kill (杀) and becomes the
   head (then only trumps chain); any other card is a discard.

The last player to chain or kill wins the trick; discards never win; if nobody chains,
the leader wins. Play goes E → N → W → S.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules_engine.cards import Card, card_text
from rules_engine.chengyu.ring import SEATS, SIDE_OF, Ring
from rules_engine.errors import RulesError
from rules_engine.i18n import joined, t, term

LEAD, CHAIN, DISCARD, KILL = "lead", "chain", "discard", "kill"


@dataclass
class Trick:
    """A trick as it is played: the head, who holds the trick, what each card was."""

    ring: Ring
    leader: str
    head: Card | None = None
    winner: str | None = None
    kinds: list[str] = field(default_factory=list)

    @property
    def next_seat(self) -> str:
        return SEATS[(SEATS.index(self.leader) + len(self.kinds)) % 4]

    def kind_of(self, card: Card) -> str:
        """What ``card`` would be if played now (legality aside)."""
        if self.head is None:
            return LEAD
        if self.ring.chains(self.head, card):
            return CHAIN
        if self.ring.is_trump(card) and not self.ring.is_trump(self.head):
            return KILL
        return DISCARD

    def add(self, card: Card) -> str:
        kind = self.kind_of(card)
        if kind != DISCARD:
            self.head, self.winner = card, self.next_seat
        self.kinds.append(kind)
        return kind

    def ruling(self, hand: list[Card], card: Card) -> str:
        """Why ``card`` may not be played from ``hand`` now; "" when it may."""
        if self.head is None:
            return ""
        chains = [c for c in hand if self.ring.chains(self.head, c)]
        if chains:
            if card in chains:
                return ""
            return t(
                "must chain to {card} (必出) with {chains}",
                card=card_text(self.head),
                chains=joined((card_text(c) for c in chains), "or"),
            )
        same_suit = [c for c in hand if c.suit == self.head.suit]
        if same_suit and card.suit != self.head.suit:
            return t(
                "cannot chain to {card}, so must discard a card of its suit ({same_suit})",
                card=card_text(self.head),
                same_suit=", ".join(card_text(c) for c in same_suit),
            )
        return ""


def seat(value: object, field_name: str) -> str:
    if not isinstance(value, str) or value.upper() not in SEATS:
        raise RulesError(
            t(
                "{field_name} must be a seat E, S, W or N, not {value!r}",
                field_name=field_name,
                value=value,
            ),
            field_name,
        )
    return value.upper()


def resolve_trick(ring: Ring, leader: str, cards: list[Card]) -> Trick:
    """Play the cards of a trick, in order from the leader, and say who wins it."""
    trick = Trick(ring, leader)
    for card in cards:
        trick.add(card)
    return trick


def check_play(ring: Ring, hand: list[Card], trick_cards: list[Card], card: Card) -> dict:
    """Rule on playing ``card`` from ``hand`` (before the play) after ``trick_cards``."""
    if card not in hand:
        raise RulesError(t("play {card} is not in the hand", card=card_text(card)), "play")
    if len(trick_cards) > 3:
        raise RulesError(t("trick already holds 4 cards"), "trick")
    trick = resolve_trick(ring, SEATS[0], trick_cards)
    reason = trick.ruling(hand, card)
    kind = trick.kind_of(card)
    head = card_text(trick.head) if trick.head else None
    if reason:
        return {"legal": False, "reason": reason, "kind": kind, "head": head}
    return {"legal": True, "reason": t("a {kind}", kind=term(kind)), "kind": kind, "head": head}


@dataclass
class Replay:
    """A whole deal replayed: tricks per side, each trick's winner, the first illegal play."""

    tricks: dict[str, int]
    winners: list[str]
    first_illegal: dict | None

    def as_dict(self) -> dict:
        return {"tricks": self.tricks, "winners": self.winners, "first_illegal": self.first_illegal}


def replay_deal(ring: Ring, tricks: list[tuple[str, list[Card]]]) -> Replay:
    """Replay 13 tricks ``(leader, cards in play order)``; each hand is what its seat plays.

    Illegal plays (a wrong leader, a missed 必出, a wrong discard) do not stop the replay:
    the tricks are resolved as played and the first illegal play is reported."""
    hands: dict[str, list[Card]] = {s: [] for s in SEATS}
    for leader, cards in tricks:
        for offset, card in enumerate(cards):
            hands[SEATS[(SEATS.index(leader) + offset) % 4]].append(card)
    first_illegal = None

    def report(number: int, who: str, card: Card | None, reason: str) -> None:
        nonlocal first_illegal
        if first_illegal is None:
            first_illegal = {
                "trick": number,
                "seat": who,
                "card": card and card_text(card),
                "reason": reason,
            }

    counts = {"EW": 0, "NS": 0}
    winners: list[str] = []
    expected = next((s for s, h in hands.items() if Card("S", "3") in h), None)
    for number, (leader, cards) in enumerate(tricks, start=1):
        if expected is not None and leader != expected:
            why = t("holds ♠3") if number == 1 else t("won the last trick")
            report(
                number,
                leader,
                None,
                t("{expected} leads: {expected} {why}", expected=expected, why=why),
            )
        trick = Trick(ring, leader)
        for card in cards:
            who = trick.next_seat
            reason = trick.ruling(hands[who], card)
            if reason:
                report(number, who, card, reason)
            hands[who].remove(card)
            trick.add(card)
        winners.append(trick.winner)
        counts[SIDE_OF[trick.winner]] += 1
        expected = trick.winner
    return Replay(counts, winners, first_illegal)
