"""成语接龙扑克 idiom-chain poker (SPEC 4.4): chaining, tricks, deals and match scoring.

``score(record)`` scores a match record (see :mod:`.scoring` for deals and penalties) and
``check(request)`` rules on one card: ``{"trump": "H", "hand": [...], "trick": ["S7"],
"play": "S2"}`` where ``hand`` is the player's hand before the play and ``trick`` the cards
played so far in this trick, the leader's first. ``suit_ring`` (a request field or the
preset's ``chengyu_suit_ring``) sets which suit's A follows each K.

In Python: :func:`resolve_trick`, :func:`check_play`, :func:`replay_deal` (first illegal
play with its reason), :func:`transfer_trick`, :func:`round_lost`, :func:`load_deck`.
"""

from __future__ import annotations

from rules_engine.cards import count_copies, parse_card, parse_cards
from rules_engine.chengyu.idioms import chain_breaks, load_deck, parse_deck
from rules_engine.chengyu.play import Replay, Trick, check_play, replay_deal, resolve_trick
from rules_engine.chengyu.ring import Ring, parse_suit, parse_suit_ring
from rules_engine.chengyu.scoring import round_lost, score, transfer_trick
from rules_engine.presets import resolve_preset

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
    ring = Ring(parse_suit(request.get("trump")), ring_suits)
    hand = parse_cards(request.get("hand"), 1, "hand")
    trick = parse_cards(request.get("trick") or [], 1, "trick")
    play = parse_card(request.get("play"), "play")
    count_copies([hand, trick], 1, "cards")
    return check_play(ring, hand, trick, play)
