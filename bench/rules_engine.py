"""Rules-engine speed figures: ``.venv/bin/python bench/rules_engine.py``.

Each bench is a function returning (label, mean milliseconds, target ms or None); add one
by writing the function and appending it to BENCHES.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules_engine import api  # noqa: E402
from rules_engine.cards import cards_text, parse_cards  # noqa: E402
from rules_engine.guandan import classify, replay_deal  # noqa: E402
from rules_engine.guandan.sample import sample_deal  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rules_engine_tractor import BENCHES as TRACTOR_CHENGYU_BENCHES  # noqa: E402

Bench = Callable[[], tuple[str, float, float | None]]


def mean_ms(action: Callable[[], object], repeat: int) -> float:
    action()  # warm caches
    start = time.perf_counter()
    for _ in range(repeat):
        action()
    return (time.perf_counter() - start) / repeat * 1000


def _sample_log(seed: int = 1, level: str = "7"):
    hands, log = sample_deal(seed, level)
    return hands, log, level


def guandan_replay() -> tuple[str, float, float | None]:
    hands, log, level = _sample_log()
    ms = mean_ms(lambda: replay_deal(log, hands, level), 300)
    return f"guandan: replay a {len(log)}-play deal (parsed)", ms, 5.0


def guandan_replay_json() -> tuple[str, float, float | None]:
    hands, log, level = _sample_log()
    request = {
        "game": "guandan",
        "level": level,
        "hands": {seat: cards_text(cards) for seat, cards in hands.items()},
        "play_log": [{"seat": p.seat, "cards": cards_text(p.cards)} for p in log],
    }
    assert api.check(request)["legal"]
    ms = mean_ms(lambda: api.check(request), 300)
    return f"guandan: check a {len(log)}-play log from JSON (parse + replay)", ms, 5.0


def guandan_classify_wild() -> tuple[str, float, float | None]:
    cards = parse_cards(["S5", "C5", "D5", "S5", "C5", "D5", "H5", "H5", "H7", "H7"], 2)
    assert classify(cards, "7")
    ms = mean_ms(lambda: classify(cards, "7"), 5000)
    return "guandan: classify 10 cards with 2 wild cards", ms, 1.0


def guandan_classify_six_wild() -> tuple[str, float, float | None]:
    cards = parse_cards(["S5", "S5", "C6", "S6", "H7", "H7"], 2)
    ms = mean_ms(lambda: classify(cards, "7"), 5000)
    return "guandan: classify 6 cards with 2 wild cards (tubes and plates)", ms, 1.0


def _wild_hand() -> list:
    """A 27-card hand at level 7 holding both wild cards (H7 H7), dealt from a fixed seed."""
    import random

    from rules_engine.cards import DECK

    rest = [c for c in list(DECK) * 2 if not (c.suit == "H" and c.rank == "7")]
    random.Random(17).shuffle(rest)
    return parse_cards(["H7", "H7"], 2) + rest[:25]


def guandan_list_leads() -> tuple[str, float, float | None]:
    """The hard case of issue 17: every lead of a 27-card hand with two wild cards. The
    floor printed beside it: classifying each listed play once (what checking the listing
    play by play costs)."""
    from rules_engine.guandan.legal import legal_plays

    hand = _wild_hand()
    plays = legal_plays(hand, 5, None)
    ms = mean_ms(lambda: legal_plays(hand, 5, None), 20)
    listed = [parse_cards(p["cards"], 2) for p in plays]
    floor = mean_ms(lambda: [classify(c, 5) for c in listed], 5)
    label = (
        f"guandan: list every lead of a 27-card hand with 2 wild cards ({len(plays)} plays;"
        f" floor classify-each {floor:.2f} ms, ratio {ms / floor:.2f})"
    )
    return label, ms, 50.0


def guandan_list_beating() -> tuple[str, float, float | None]:
    hand = _wild_hand()
    request = {
        "game": "guandan",
        "level": "7",
        "previous": ["S5", "C5"],
        "list": True,
        "hand": cards_text(hand),
    }
    count = api.check(request)["count"]
    ms = mean_ms(lambda: api.check(request), 20)
    return f"guandan: check list from JSON, plays beating a pair of 5s ({count})", ms, 50.0


def tractor_replay_full_deal() -> tuple[str, float, float | None]:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "rules_engine"))
    from tractor_deal import request as deal_request

    request = deal_request()
    assert api.check(request)["complete"]
    ms = mean_ms(lambda: api.check(request), 20)
    return "tractor: replay a full 3-deck deal (25 tricks, 100 plays) from JSON", ms, 50.0


def tractor_list_kills() -> tuple[str, float, float | None]:
    """A void follower holding 25 trumps against an 8-card throw: tens of thousands of kills,
    counted, the strongest 200 listed."""
    import random

    from rules_engine.cards import DECK
    from rules_engine.tractor import Ordering

    ordering = Ordering("S", "5")
    trumps = [c for c in list(DECK) * 3 if ordering.is_trump(c)]
    random.Random(3).shuffle(trumps)
    hand = trumps[:25] + [c for c in DECK if c.suit == "D"][:12]
    request = {
        "game": "tractor",
        "trump": "S",
        "level": "5",
        "hand": cards_text(hand),
        "lead": ["CA", "CA", "CK", "CQ", "CJ", "C10", "C9", "C8"],
        "list": True,
    }
    count = api.check(request)["count"]
    ms = mean_ms(lambda: api.check(request), 5)
    return (
        f"tractor: list the follows of a 25-trump void hand to an 8-card throw ({count})",
        ms,
        50.0,
    )


BENCHES: list[Bench] = [
    guandan_list_leads,
    tractor_list_kills,
    guandan_list_beating,
    tractor_replay_full_deal,
    guandan_replay,
    guandan_replay_json,
    guandan_classify_wild,
    guandan_classify_six_wild,
    *TRACTOR_CHENGYU_BENCHES,
]


def main() -> int:
    failed = False
    for bench in BENCHES:
        label, ms, target = bench()
        verdict = "" if target is None else ("  ok" if ms < target else "  SLOWER THAN TARGET")
        failed |= target is not None and ms >= target
        goal = "" if target is None else f" (target < {target:g} ms)"
        print(f"{label}: {ms:.3f} ms{goal}{verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
