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


def check_declarations(level: object, declarations: object) -> dict:
    """Rule on a sequence of declarations; the first illegal one is reported."""
    level_rank = RANKS[parse_level(level)]
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
    return {
        "legal": True,
        "reason": t(
            "{seat} declared {suit} with {count} card(s)", seat=seat, suit=suit, count=count
        ),
        "trump": suit,
        "declarer": seat,
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
