"""A full three-deck tractor deal (162 cards: four hands of 39 and a bottom of 6) as a
referee records it, trick by trick: trump spades, level 5, EW dealing, E leading first.

Each trick lists its plays in the order they were made (the first is the lead) and the
winner as the referee calls it. The hands are the union of each seat's plays, so the log
is consistent with them by construction."""

from __future__ import annotations

from collections import Counter

# (plays "SEAT:CARDS" in order, winner as the referee calls it)
TRICKS = [
    # hearts: a triple, a pair, four singles
    ("E:HA HA HA  N:HK HK HK  W:HQ HQ HQ  S:HJ HJ HJ", "E"),
    ("E:H9 H9  N:HT HT  W:H8 H8  S:H7 H7", "N"),
    ("N:HT  W:H9  S:H8  E:H7", "N"),
    ("N:H6  W:H6  S:H6  E:H4", "N"),
    ("N:H3  W:H4  S:H4  E:H3", "W"),
    ("W:H3  S:H2  E:H2  N:H2", "W"),
    # clubs
    ("W:CA CA CA  S:CK CK CK  E:CQ CQ CQ  N:CJ CJ CJ", "W"),
    ("W:C7 C7  S:CT CT  E:C9 C9  N:C8 C8", "S"),
    ("S:CT  E:C9  N:C8  W:C7", "S"),
    ("S:C4  E:C6  N:C6  W:C6", "E"),
    ("E:C4  N:C4  W:C3  S:C3", "E"),
    ("E:C2  N:C3  W:C2  S:C2", "N"),
    # diamonds
    ("N:DK DK DK  W:DA DA DA  S:DQ DQ DQ  E:DJ DJ DJ", "W"),
    ("W:D8 D8  S:D9 D9  E:D7 D7  N:DT DT", "N"),
    ("N:D7  W:D8  S:D9  E:DT", "E"),
    ("E:D6  N:D4  W:D6  S:D6", "E"),
    ("E:D3  N:D4  W:D4  S:D3", "N"),
    ("N:D2  W:D2  S:D3  E:D2", "S"),
    # trumps: a tractor of two pairs, a triple, five singles
    ("S:S3 S3 S4 S4  E:S6 S6 S7 S7  N:S8 S8 S9 S9  W:SJ SJ SQ SQ", "W"),
    ("W:S2 S2 S2  S:SA SA SA  E:H5 H5 H5  N:C5 C5 C5", "E"),
    ("E:S8  N:S9  W:SJ  S:SQ", "S"),
    ("S:ST  E:ST  N:SK  W:SK", "N"),
    ("N:D5  W:D5  S:D5  E:S5", "E"),
    ("E:S5  N:LJ  W:S5  S:LJ", "N"),
    ("N:BJ  W:BJ  S:BJ  E:LJ", "N"),
]
BOTTOM = ["S3", "S4", "S6", "S7", "ST", "SK"]

# What the referee types for this deal (SPEC 4.5 score record): NS took 20 + 10 (tricks 2,
# 3), 20 + 10 (8, 9), 20 (14), 40 (22) and 10 (24) = 130 in tricks, and won the last trick
# with a single, so the bottom's 20 count twice.
REFEREE_DEAL = {"dealer": "EW", "defender_points": 130, "bottom_points": 20, "bottom_multiplier": 2}


def plays(trick: str) -> list[tuple[str, list[str]]]:
    out = []
    for part in trick.split("  "):
        seat, cards = part.split(":")
        out.append((seat, cards.split()))
    return out


def play_log(tricks=TRICKS) -> list[dict]:
    return [{"seat": seat, "cards": cards} for trick, _ in tricks for seat, cards in plays(trick)]


def hands(tricks=TRICKS) -> dict[str, list[str]]:
    held: dict[str, list[str]] = {seat: [] for seat in "ESWN"}
    for trick, _ in tricks:
        for seat, cards in plays(trick):
            held[seat] += cards
    return held


def request(**changes) -> dict:
    return {
        "game": "tractor",
        "trump": "S",
        "level": "5",
        "dealer": "EW",
        "hands": hands(),
        "bottom": BOTTOM,
        "play_log": play_log(),
    } | changes


def whole_decks() -> Counter:
    """Every card the deal uses, with its copies (for the test that it is all three decks)."""
    used = Counter(card for cards in hands().values() for card in cards)
    return used + Counter(BOTTOM)
