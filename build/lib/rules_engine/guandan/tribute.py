"""Tribute (进贡) and return (还贡) before a deal, checked against the hands (SPEC 4.2, seed 五).

- Single tribute: the last player out of the previous deal gives their highest card to the
  first player out; the heart level card (逢人配) never counts as the highest card.
- Double tribute: when the first side took both first places (双上), both opponents pay;
  the first player takes the bigger card, the partner the other; equal cards go
  counter-clockwise (each payer to the next seat in the order of play; Suzhou) or clockwise
  (national), per the preset's ``equal_tribute_direction``.
- 抗贡: no tribute when the paying side holds both big jokers (BJ).
- Return: each receiver gives one card back to its payer; to a partner it must rank below
  the level card (A and under, never a level card or a joker; Suzhou) or be 10 or lower
  (national), per ``partner_return_limit``; to an opponent any card.
- Leader: the payer (the payer of the bigger card in a double tribute; with equal cards the
  seat before the first player (上家, Suzhou) or after it (下家, national), per
  ``equal_tribute_leader``); on 抗贡 the first player leads.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rules_engine.cards import RANKS, Card, card_text, parse_card, rank_text
from rules_engine.errors import RulesError, sub_field
from rules_engine.guandan.combos import BJ, card_value, is_wild, level_index
from rules_engine.guandan.hands import missing_cards
from rules_engine.guandan.scoring import deal_result
from rules_engine.guandan.seats import (
    PARTNER,
    SEATS,
    SIDE_OF,
    next_seat,
    parse_seat,
    previous_seat,
)
from rules_engine.i18n import joined, t

LEVEL_CARD_VALUE = 13


@dataclass(frozen=True)
class Transfer:
    giver: str
    receiver: str
    card: Card

    def as_dict(self) -> dict:
        return {"from": self.giver, "to": self.receiver, "card": card_text(self.card)}


@dataclass
class TributeRuling:
    legal: bool
    reason: str
    resisted: bool
    payers: list[str]
    leader: str | None

    def as_dict(self) -> dict:
        return {
            "legal": self.legal,
            "reason": self.reason,
            "resisted": self.resisted,
            "payers": self.payers,
            "leader": self.leader,
        }


def highest_tribute_value(hand: list[Card], level: int) -> int:
    """The value of the highest card a hand may pay, leaving out the heart level card."""
    values = [card_value(card, level) for card in hand if not is_wild(card, level)]
    return max(values) if values else -1


def _payers(finish: tuple[str, ...]) -> list[str]:
    if finish[1] == PARTNER[finish[0]]:
        return [finish[2], finish[3]] if len(finish) == 4 else [s for s in SEATS if s not in finish]
    return [finish[3]]


@dataclass(frozen=True)
class TributeRules:
    """The preset's tribute settings (SPEC 4.2, 5): Suzhou's by default."""

    partner_return_limit: str = "level"  # below the level card; or a rank: that rank or lower
    equal_tribute_direction: str = "counter_clockwise"
    equal_tribute_leader: str = "before_first"

    @classmethod
    def of(cls, preset) -> TributeRules:
        return cls(
            preset.partner_return_limit,
            preset.equal_tribute_direction,
            preset.equal_tribute_leader,
        )


SUZHOU_RULES = TributeRules()


def check_tribute(
    hands: dict[str, list[Card]],
    finish: object,
    level: object,
    tribute: list[Transfer],
    returns: list[Transfer],
    rules: TributeRules = SUZHOU_RULES,
) -> TributeRuling:
    """Check a declared tribute and its returns against the hands dealt (before tribute)."""
    level = level_index(level)
    result = deal_result(finish, "finish")
    first = result.finish[0]
    payers = _payers(result.finish)
    big_jokers = sum(card_value(c, level) == BJ + 1 for p in payers for c in hands[p])
    if big_jokers == 2:
        if tribute or returns:
            return TributeRuling(
                False,
                t("no tribute is due: {payers} hold both big jokers (抗贡)", payers=joined(payers)),
                True,
                payers,
                first,
            )
        return TributeRuling(
            True, t("抗贡: the paying side holds both big jokers"), True, payers, first
        )
    try:
        receivers, leader = _check_paid(hands, payers, first, level, tribute, rules)
        _check_returns(hands, tribute, receivers, level, returns, rules)
    except RulesError as err:
        return TributeRuling(False, err.message, False, payers, None)
    return TributeRuling(True, t("tribute and return are legal"), False, payers, leader)


def _check_paid(hands, payers, first, level, tribute, rules) -> tuple[dict[str, str], str]:
    """Check who paid what to whom; return {payer: receiver} and the leader."""
    by_payer = {t.giver: t for t in tribute}
    if sorted(by_payer) != sorted(payers) or len(tribute) != len(payers):
        raise RulesError(t("tribute is due from {payers}, one card each", payers=joined(payers)))
    for payer in payers:
        paid = by_payer[payer].card
        if missing_cards(Counter(hands[payer]), [paid]):
            raise RulesError(t("{payer} does not hold {card}", payer=payer, card=card_text(paid)))
        if is_wild(paid, level):
            raise RulesError(
                t(
                    "{payer} may not pay the heart level card {card} (逢人配)",
                    payer=payer,
                    card=card_text(paid),
                )
            )
        if card_value(paid, level) != highest_tribute_value(hands[payer], level):
            raise RulesError(
                t(
                    "{payer} must pay the highest card, not {card}",
                    payer=payer,
                    card=card_text(paid),
                )
            )
    if len(payers) == 1:
        expected = {payers[0]: first}
        leader = payers[0]
    else:
        a, b = payers
        va, vb = (card_value(by_payer[p].card, level) for p in payers)
        if va == vb:
            # equal cards: counter-clockwise is the order of play (each payer to the next
            # seat), clockwise the other way; the returns go back the opposite way
            to = (
                next_seat if rules.equal_tribute_direction == "counter_clockwise" else previous_seat
            )
            expected = {a: to(a), b: to(b)}
            before = rules.equal_tribute_leader == "before_first"
            leader = previous_seat(first) if before else next_seat(first)
        else:
            big, small = (a, b) if va > vb else (b, a)
            expected = {big: first, small: PARTNER[first]}
            leader = big
    for payer, receiver in expected.items():
        if by_payer[payer].receiver != receiver:
            raise RulesError(
                t(
                    "{payer}'s tribute goes to {receiver}, not {receiver2}",
                    payer=payer,
                    receiver=receiver,
                    receiver2=by_payer[payer].receiver,
                )
            )
    return expected, leader


def partner_return_allowed(card: Card, level: int, limit: str = "level") -> bool:
    """May ``card`` be returned to a partner? Below the level card (``"level"``, Suzhou), or
    ``limit`` rank or lower (``"10"``: 10 or lower, national; a level card or a joker never)."""
    value = card_value(card, level)
    if limit == "level":
        return value < LEVEL_CARD_VALUE
    return value < LEVEL_CARD_VALUE and value <= RANKS.index(limit.upper().replace("10", "T"))


def _check_returns(hands, tribute, receivers, level, returns, rules) -> None:
    expected = {receiver: payer for payer, receiver in receivers.items()}
    by_giver = {r.giver: r for r in returns}
    if sorted(by_giver) != sorted(expected) or len(returns) != len(expected):
        raise RulesError(
            t(
                "a card must be returned by {receivers}, one each",
                receivers=joined(sorted(expected)),
            )
        )
    for receiver, payer in expected.items():
        back = by_giver[receiver]
        if back.receiver != payer:
            raise RulesError(
                t(
                    "{receiver} returns a card to {payer}, not to {receiver2}",
                    receiver=receiver,
                    payer=payer,
                    receiver2=back.receiver,
                )
            )
        holding = Counter(hands[receiver]) + Counter(
            t.card for t in tribute if t.receiver == receiver
        )
        if missing_cards(holding, [back.card]):
            raise RulesError(
                t(
                    "{receiver} does not hold {card} to return",
                    receiver=receiver,
                    card=card_text(back.card),
                )
            )
        limit = rules.partner_return_limit
        if SIDE_OF[payer] == SIDE_OF[receiver] and not partner_return_allowed(
            back.card, level, limit
        ):
            if limit == "level":
                raise RulesError(
                    t(
                        "{receiver} returns to a partner: the card must rank below the level card, not {card}",
                        receiver=receiver,
                        card=card_text(back.card),
                    )
                )
            raise RulesError(
                t(
                    "{receiver} returns to a partner: the card must be {limit} or lower, not {card}",
                    receiver=receiver,
                    limit=rank_text(limit.upper().replace("10", "T")),
                    card=card_text(back.card),
                )
            )


def parse_transfers(value: object, field: str) -> list[Transfer]:
    """``[{"from": "S", "to": "E", "card": "BJ"}, ...]`` -> Transfers."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise RulesError(
            t('{field} must be a list of {{"from", "to", "card"}}', field=field), field
        )
    transfers = []
    for i, item in enumerate(value):
        where = sub_field(field, i)
        if not isinstance(item, dict) or not {"from", "to", "card"} <= item.keys():
            raise RulesError(
                t("{where} must be an object with from, to and card", where=where), where
            )
        transfers.append(
            Transfer(
                parse_seat(item["from"], sub_field(where, "from")),
                parse_seat(item["to"], sub_field(where, "to")),
                parse_card(item["card"], sub_field(where, "card")),
            )
        )
    return transfers
