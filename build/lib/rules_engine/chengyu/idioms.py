"""The deck definition: the idiom printed on each of the 52 cards.

``idioms.json`` beside this module is the default deck: 52 common idioms in one ring
(each idiom's last character starts the next card's idiom, in card order along the default
suit ring, closing from ♠K back to ♦A), keeping the seed's ♠6 得道多助 → ♠7 助人为乐 →
♠8 乐不可极. It is built by ``scripts/build_idiom_deck.py`` from an idiom dataset and word
frequencies (rerun it to rebuild; ``--check`` compares). An organiser's own file of the
same form (``{"cards": {"SA": "...", ...}}``) is validated the same way: the 52 cards each
once and 52 different idioms. :func:`chain_breaks` lists the links where a deck does not
chain (advice to the organiser, not an error: homophones are common).
"""

from __future__ import annotations

import json
from pathlib import Path

from rules_engine.cards import Card, card_text, parse_card
from rules_engine.chengyu.ring import Ring
from rules_engine.errors import RulesError
from rules_engine.i18n import t

SHIPPED = Path(__file__).with_name("idioms.json")


def _no_repeated_keys(pairs: list[tuple[str, object]]) -> dict:
    seen: dict[str, object] = {}
    for key, value in pairs:
        if key in seen:
            raise RulesError(t("{key!r} is given twice", key=key), key)
        seen[key] = value
    return seen


def parse_deck(document: object, complete: bool = True) -> dict[Card, str | None]:
    """Card -> idiom from a parsed deck document; RulesError naming what is wrong."""
    cards = document.get("cards") if isinstance(document, dict) else None
    if not isinstance(cards, dict):
        raise RulesError(
            t('a deck file is an object with "cards": {{"SA": "idiom", ...}}'), "cards"
        )
    deck: dict[Card, str | None] = {}
    for text, idiom in cards.items():
        field = f"cards.{text}"
        card = parse_card(text, field)
        if card.is_joker:
            raise RulesError(t("{field}: the idiom deck has no jokers", field=field), field)
        if card in deck:
            raise RulesError(
                t("{field}: {card} is given twice", field=field, card=card_text(card)), field
            )
        if idiom is not None and (not isinstance(idiom, str) or not idiom.strip()):
            raise RulesError(
                t("{field}: an idiom is a non-empty text, not {idiom!r}", field=field, idiom=idiom),
                field,
            )
        if complete and idiom is None:
            raise RulesError(
                t("{field}: the idiom of {card} is missing", field=field, card=card_text(card)),
                field,
            )
        deck[card] = idiom.strip() if idiom else None
    if len(deck) != 52:
        missing = [card_text(c) for c in Ring("S").order() if c not in deck]
        raise RulesError(
            t("the deck needs all 52 cards; missing: {missing}", missing=", ".join(missing)),
            "cards",
        )
    idioms = [idiom for idiom in deck.values() if idiom]
    repeated = sorted({idiom for idiom in idioms if idioms.count(idiom) > 1})
    if repeated:
        raise RulesError(
            t("every card has its own idiom; repeated: {repeated}", repeated=", ".join(repeated)),
            "cards",
        )
    return deck


def load_deck(path: str | Path | None = None) -> dict[Card, str | None]:
    """The default deck (``path`` None), or an organiser's deck file; both complete."""
    where = Path(path) if path is not None else SHIPPED
    try:
        document = json.loads(
            where.read_text(encoding="utf-8"), object_pairs_hook=_no_repeated_keys
        )
    except OSError as err:
        raise RulesError(
            t("cannot read the deck file {where}: {strerror}", where=where, strerror=err.strerror),
            "path",
        ) from None
    except json.JSONDecodeError as err:
        raise RulesError(
            t(
                "the deck file {where} is not JSON: {msg} (line {lineno})",
                where=where,
                msg=err.msg,
                lineno=err.lineno,
            ),
            "path",
        ) from None
    return parse_deck(document, complete=True)


def default_idioms() -> dict[str, str]:
    """Card code (``"S7"``) -> idiom of the default deck, for pages that show the cards."""
    return {card_text(card): idiom for card, idiom in load_deck().items() if idiom}


def chain_breaks(deck: dict[Card, str | None], ring: Ring) -> list[tuple[str, str]]:
    """Ring links (card, next card) whose idioms are both known but do not chain."""
    order = ring.order()
    breaks = []
    for card, after in zip(order, order[1:] + order[:1], strict=True):
        first, second = deck.get(card), deck.get(after)
        if first and second and first[-1] != second[0]:
            breaks.append((card_text(card), card_text(after)))
    return breaks
