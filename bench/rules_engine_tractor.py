"""Tractor and idiom-chain poker speed figures, called from ``bench/rules_engine.py``.

``BENCHES`` lists functions returning (label, mean milliseconds, target ms or None);
run alone with ``.venv/bin/python bench/rules_engine_tractor.py``.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules_engine import api  # noqa: E402
from rules_engine.cards import DECK, cards_text  # noqa: E402
from rules_engine.chengyu import Ring, replay_deal  # noqa: E402
from rules_engine.chengyu.sample import deal_hands, play_deal  # noqa: E402
from rules_engine.tractor import Ordering, check_follow  # noqa: E402

ORDERING = Ordering("S", "5")


def _mean_ms(action: Callable[[], object], repeat: int) -> float:
    action()
    start = time.perf_counter()
    for _ in range(repeat):
        action()
    return (time.perf_counter() - start) / repeat * 1000


def _trump_heavy_hand(seed: int = 4) -> list:
    """A 39-card hand of a 3-deck deal, the one with most trumps of four seeds' deals."""
    deck = list(DECK) * 3
    random.Random(seed).shuffle(deck)
    hands = [deck[i * 39 : i * 39 + 39] for i in range(4)]
    return max(hands, key=lambda hand: sum(ORDERING.is_trump(c) for c in hand))


def _follow_case():
    hand = _trump_heavy_hand()
    trumps = sorted((c for c in hand if ORDERING.is_trump(c)), key=ORDERING.position)
    spades = [c for c in DECK if c.suit == "S" and c.rank != "5"]
    held = {c: hand.count(c) for c in spades}
    start = next(i for i in range(len(spades) - 2) if all(held[c] <= 1 for c in spades[i : i + 3]))
    lead = spades[start : start + 3] * 2  # a 3-pair trump tractor the others can hold
    play = trumps[:6]
    return hand, lead, play


def tractor_follow() -> tuple[str, float, float | None]:
    hand, lead, play = _follow_case()
    ms = _mean_ms(lambda: check_follow(ORDERING, hand, lead, play), 3000)
    return "tractor: validate one follow of a trump tractor, 39-card hand (parsed)", ms, 1.0


def tractor_follow_json() -> tuple[str, float, float | None]:
    hand, lead, play = _follow_case()
    request = {
        "game": "tractor",
        "trump": "S",
        "level": "5",
        "hand": cards_text(hand),
        "lead": cards_text(lead),
        "play": cards_text(play),
    }
    ms = _mean_ms(lambda: api.check(request), 3000)
    return "tractor: check one follow from JSON, 39-card hand (parse + rule)", ms, 1.0


def chengyu_replay() -> tuple[str, float, float | None]:
    ring = Ring("H")
    tricks = play_deal(ring, deal_hands(2))
    ms = _mean_ms(lambda: replay_deal(ring, tricks), 1000)
    return "chengyu: replay a 13-trick deal (parsed)", ms, 5.0


BENCHES = [tractor_follow, tractor_follow_json, chengyu_replay]


if __name__ == "__main__":
    for bench in BENCHES:
        label, ms, target = bench()
        goal = "" if target is None else f" (target < {target:g} ms)"
        print(f"{label}: {ms:.3f} ms{goal}")
