"""成语接龙扑克 idiom-chain poker (SPEC 4.4): chaining, tricks, deals and match scoring.

``score(record)`` scores a match record (see :mod:`.scoring` for deals and penalties) and
``check(request)`` rules on one card: ``{"trump": "H", "hand": [...], "trick": ["S7"],
"play": "S2"}`` where ``hand`` is the player's hand before the play and ``trick`` the cards
played so far in this trick, the leader's first. ``suit_ring`` (a request field or the
preset's ``chengyu_suit_ring``) sets which suit's A follows each K.

In Python: :func:`resolve_trick`, :func:`check_play`, :func:`replay_deal` (first illegal
play with its reason), :func:`transfer_trick`, :func:`round_lost`, :func:`load_deck`.
``check`` with ``{"deck": {"cards": {...}}}`` validates an organiser's deck
(:func:`check_deck`).
"""

from __future__ import annotations

from rules_engine.cards import RANKS, card_text, count_copies, parse_card, parse_cards, parse_hand
from rules_engine.chengyu.idioms import chain_breaks, load_deck, parse_deck
from rules_engine.chengyu.play import (
    CHAIN,
    DISCARD,
    KILL,
    LEAD,
    Replay,
    Trick,
    check_play,
    replay_deal,
    resolve_trick,
)
from rules_engine.chengyu.ring import Ring, parse_suit, parse_suit_ring
from rules_engine.chengyu.scoring import TRICKS_PER_DEAL as HAND_SIZE  # 52 cards, 13 each
from rules_engine.chengyu.scoring import round_lost, score, transfer_trick
from rules_engine.i18n import t
from rules_engine.listing import listing, wants_list
from rules_engine.presets import resolve_preset

RANK_ORDER = ("A", *RANKS[:-1])  # within a suit the ring runs A, 2, …, K

__all__ = [
    "Replay",
    "Ring",
    "Trick",
    "chain_breaks",
    "check",
    "check_play",
    "load_deck",
    "parse_deck",
    "replay_deal",
    "resolve_trick",
    "round_lost",
    "score",
    "transfer_trick",
]


def check(request: dict) -> dict:
    """Rule on one card (SPEC 4.5 ``check``): 必出, discard of the head's suit, kill."""
    preset = resolve_preset(request, "chengyu")
    ring_suits = parse_suit_ring(request.get("suit_ring", preset.chengyu_suit_ring))
    if "deck" in request:
        return check_deck(request["deck"], ring_suits)
    ring = Ring(parse_suit(request.get("trump")), ring_suits)
    hand = parse_hand(request.get("hand"), 1, HAND_SIZE, "hand")
    trick = parse_cards(request.get("trick") or [], 1, "trick")
    count_copies([hand, trick], 1, "cards")
    if wants_list(request):
        answer = listing(legal_cards(ring, hand, trick))
        if request.get("play") is not None:
            answer = check_play(ring, hand, trick, parse_card(request["play"], "play")) | answer
        return answer
    play = parse_card(request.get("play"), "play")
    return check_play(ring, hand, trick, play)


ORDER = {CHAIN: 0, KILL: 1, LEAD: 2, DISCARD: 3}


def check_deck(document: object, ring_suits: tuple[str, ...]) -> dict:
    """An organiser's deck (``{"cards": {"SA": "idiom", ...}}``) validated as the default one
    is: the 52 cards, 52 different idioms, and one ring along the suit order (each idiom's
    last character starts the next card's idiom, ♠K back to ♦A with the default ring)."""
    deck = parse_deck(document)
    breaks = chain_breaks(deck, Ring(ring_suits[0], ring_suits))  # trump plays no part here
    if breaks:
        shown = ", ".join(f"{a}→{b}" for a, b in breaks)
        return {
            "legal": False,
            "reason": t("the idioms do not chain at {breaks}", breaks=shown),
            "breaks": [list(pair) for pair in breaks],
        }
    return {"legal": True, "reason": t("52 idioms in one ring"), "breaks": []}


def legal_cards(ring: Ring, hand: list, trick: list) -> list[dict]:
    """Every card of ``hand`` that may be played now (``"list": true``): the 必出 chains
    first, then kills, then discards (a lead: every card), each from the highest rank."""
    plays = []
    for card in hand:
        ruling = check_play(ring, hand, trick, card)
        if ruling["legal"]:
            plays.append((ORDER[ruling["kind"]], -RANK_ORDER.index(card.rank), card))
    plays.sort(key=lambda p: (p[0], p[1], p[2].suit))
    return [
        {"cards": [card_text(card)], "kind": check_play(ring, hand, trick, card)["kind"]}
        for _, _, card in plays
    ]
