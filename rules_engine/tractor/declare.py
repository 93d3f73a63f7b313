"""Trump declaration (亮主) in tractor (SPEC 4.3, seed 三.1).

A declaration shows one or more level cards of one suit. In order:

* 多盖少: another side overrides the standing declaration only with strictly more cards
  (of any suit); equal numbers never override, so the first declarer has no priority but
  cannot answer an override with as many cards (a single overridden by a pair needs three
  to come back).
* No self-override (不得自反): while its declaration stands, the declaring side may not
  switch suit, even with more cards. The seed's "一方" is read as the side.
* Reinforcement (加固): the declarer may show more cards of the suit declared.

Each entry of the request gives the seat and every card it shows at that moment (a
reinforcement repeats the cards shown before and adds the new ones).

First deal or not (``"first_deal"``, default true; seed 三.1 "一盘比赛的首局由对阵双方抢夺先发权…
非首局时，则仅可以变更主牌花色，但不能借此夺得先发权"): in the first deal the last declarer
becomes the dealer (庄家, the answer's ``dealer``); after it a declaration only changes the
trump suit: the answer says ``"dealer_stays": true`` and gives back the request's
``dealer`` (the seat dealing this deal), never the declarer.
"""

from __future__ import annotations

from rules_engine.cards import RANKS, parse_cards, parse_level
from rules_engine.errors import RulesError, sub_field
from rules_engine.i18n import t
from rules_engine.tractor.order import DECKS

SIDES = {"E": "EW", "W": "EW", "N": "NS", "S": "NS"}


def _parse_entry(entry: object, field: str, level: str) -> tuple[str, str, int]:
    if not isinstance(entry, dict):
        raise RulesError(t('{field} must be an object with "seat" and "cards"', field=field), field)
    seat = str(entry.get("seat", "")).upper()
    if seat not in SIDES:
        raise RulesError(
            t(
                "{field}.seat must be E, S, W or N, not {seat!r}",
                field=field,
                seat=entry.get("seat"),
            ),
            field,
        )
    cards = parse_cards(entry.get("cards"), DECKS, sub_field(field, "cards"))
    suits = {card.suit for card in cards}
    if not cards or len(suits) != 1 or any(card.rank != level for card in cards):
        raise RulesError(
            t(
                "{field}.cards must be one or more level cards ({level}) of one suit",
                field=field,
                level=level,
            ),
            field,
        )
    return seat, suits.pop(), len(cards)


def check_declarations(
    level: object, declarations: object, first_deal: object = True, dealer: object = None
) -> dict:
    """Rule on a sequence of declarations; the first illegal one is reported. In the first
    deal the last declarer deals; after it the suit changes and ``dealer`` stays."""
    level_rank = RANKS[parse_level(level)]
    if not isinstance(first_deal, bool):
        raise RulesError(t("first_deal must be true or false"), "first_deal")
    if dealer is not None and (not isinstance(dealer, str) or dealer.upper() not in SIDES):
        raise RulesError(
            t("dealer must be the dealing seat E, S, W or N, not {dealer!r}", dealer=dealer),
            "dealer",
        )
    if not isinstance(declarations, list) or not declarations:
        raise RulesError(t("declarations must be a non-empty list"), "declarations")
    standing: tuple[str, str, int] | None = None
    for index, entry in enumerate(declarations):
        seat, suit, count = _parse_entry(entry, sub_field("declarations", index), level_rank)
        reason = _refusal(standing, seat, suit, count)
        if reason:
            return {
                "legal": False,
                "reason": t("declarations[{index}]: {reason}", index=index, reason=reason),
                "index": index,
            }
        standing = (seat, suit, count)
    seat, suit, count = standing
    if first_deal:
        return {
            "legal": True,
            "reason": t(
                "{seat} declared {suit} with {count} card(s)", seat=seat, suit=suit, count=count
            ),
            "trump": suit,
            "declarer": seat,
            "first_deal": True,
            "dealer": seat,
            "dealer_stays": False,
        }
    return {
        "legal": True,
        "reason": t(
            "{seat} declared {suit} with {count} card(s): after the first deal this changes "
            "the trump suit only, the dealer stays",
            seat=seat,
            suit=suit,
            count=count,
        ),
        "trump": suit,
        "declarer": seat,
        "first_deal": False,
        "dealer": dealer.upper() if isinstance(dealer, str) else None,
        "dealer_stays": True,
    }


def _refusal(standing: tuple[str, str, int] | None, seat: str, suit: str, count: int) -> str:
    if standing is None:
        return ""
    old_seat, old_suit, old_count = standing
    if SIDES[seat] == SIDES[old_seat]:
        if suit != old_suit:
            return t("no self-override: a side may not change its own standing declaration")
        if seat != old_seat:
            return t("only the declarer reinforces a declaration")
        if count <= old_count:
            return t("a reinforcement shows more cards than before")
        return ""
    if count <= old_count:
        return t(
            "{count} card(s) cannot override {old_count}: only more cards override (多盖少)",
            count=count,
            old_count=old_count,
        )
    return ""
