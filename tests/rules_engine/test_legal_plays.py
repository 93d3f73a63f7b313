"""``"list": true`` on ``check`` (SPEC 4.5): every legal play of a hand, strongest first,
for the three games; hand-worked seed examples and the property that the listing and
``check`` agree."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import api
from rules_engine.cards import DECK, parse_cards
from rules_engine.guandan.combos import beating_readings, classify
from rules_engine.guandan.legal import legal_plays, play_key
from rules_engine.listing import MAX_LISTED, count_multisets, multiset_combinations
from rules_engine.tractor import Ordering, check_follow
from rules_engine.tractor.legal import legal_follows

# --- idiom chain: the seed's ♦K with ♦Q and ♣A in hand (either chains, 必出) ---


def chengyu_list(hand, trick, trump="H"):
    return api.check(
        {"game": "chengyu", "trump": trump, "hand": hand, "trick": trick, "list": True}
    )


def test_chengyu_list_the_seeds_diamond_king_chains_to_diamond_queen_or_club_ace():
    answer = chengyu_list(["DQ", "CA", "D3", "S9"], ["DK"])
    assert answer["legal_plays"] == [
        {"cards": ["DQ"], "kind": "chain"},
        {"cards": ["CA"], "kind": "chain"},
    ]
    assert answer["more"] == 0


def test_chengyu_list_without_a_chain_the_heads_suit_must_be_discarded():
    answer = chengyu_list(["D3", "D9", "S9", "H4"], ["DK"])
    assert [p["cards"] for p in answer["legal_plays"]] == [["D9"], ["D3"]]
    assert {p["kind"] for p in answer["legal_plays"]} == {"discard"}


def test_chengyu_list_void_in_the_heads_suit_a_trump_kills_and_any_card_discards():
    answer = chengyu_list(["H4", "C9", "S9"], ["DK"])
    assert answer["legal_plays"][0] == {"cards": ["H4"], "kind": "kill"}
    assert len(answer["legal_plays"]) == 3


def test_chengyu_every_listed_card_passes_check_and_every_legal_card_is_listed():
    hand = ["DQ", "CA", "D3", "S9", "H4", "H5"]
    for trick in (["DK"], ["H6"], ["S7", "S8"], []):
        listed = {p["cards"][0] for p in chengyu_list(hand, trick)["legal_plays"]}
        legal = {
            card
            for card in hand
            if api.check(
                {"game": "chengyu", "trump": "H", "hand": hand, "trick": trick, "play": card}
            )["legal"]
        }
        assert listed == legal


# --- tractor: the seed's 3+3 lead order a–g ---

CLUB_33 = ["CJ", "CJ", "CJ", "CQ", "CQ", "CQ"]


def tractor_list(hand, lead, **extra):
    return api.check(
        {
            "game": "tractor",
            "trump": "S",
            "level": "5",
            "hand": hand.split(),
            "lead": lead,
            "list": True,
        }
        | extra
    )


def copies(play) -> list[int]:
    return sorted(Counter(play["cards"]).values(), reverse=True)


def test_tractor_list_33_lead_a_two_consecutive_triples():
    answer = tractor_list("C2 C2 C2 C3 C3 C3 C7 C7 C7 C9", CLUB_33)
    assert [p["cards"] for p in answer["legal_plays"]] == [["C3", "C3", "C3", "C2", "C2", "C2"]]


def test_tractor_list_33_lead_b_triple_pair_and_single():
    answer = tractor_list("C2 C2 C2 C4 C4 C6 C7 H9", CLUB_33)
    assert [copies(p) for p in answer["legal_plays"]] == [[3, 2, 1], [3, 2, 1]]
    assert [p["cards"][0] for p in answer["legal_plays"]] == ["C7", "C6"]


def test_tractor_list_33_lead_c_triple_and_singles():
    answer = tractor_list("C2 C2 C2 C4 C6 C7 C8", CLUB_33)
    assert answer["count"] == 4 and all(copies(p) == [3, 1, 1, 1] for p in answer["legal_plays"])


def test_tractor_list_33_lead_d_tractor_of_pairs_and_singles():
    answer = tractor_list("C2 C2 C3 C3 C6 C7 C8", CLUB_33)
    assert answer["count"] == 3
    assert all(p["cards"][-4:] == ["C3", "C3", "C2", "C2"] for p in answer["legal_plays"])


def test_tractor_list_33_lead_e_two_loose_pairs_and_singles():
    answer = tractor_list("C2 C2 C4 C4 C6 C7 C8", CLUB_33)
    assert answer["count"] == 3 and all(copies(p) == [2, 2, 1, 1] for p in answer["legal_plays"])


def test_tractor_list_33_lead_f_a_pair_and_singles():
    answer = tractor_list("C2 C2 C4 C6 C7 C8 C9", CLUB_33)
    assert answer["count"] == 5 and all(copies(p) == [2, 1, 1, 1, 1] for p in answer["legal_plays"])


def test_tractor_list_33_lead_g_singles():
    answer = tractor_list("C2 C3 C4 C6 C7 C8 C9 H2", CLUB_33)
    assert answer["count"] == 7 and all("H2" not in p["cards"] for p in answer["legal_plays"])


def test_tractor_list_void_follower_lists_kills_first_strongest_first():
    answer = tractor_list("S2 S2 S3 S3 D4 SA", ["CJ", "CJ"])
    plays = answer["legal_plays"]
    assert plays[:2] == [
        {"cards": ["S3", "S3"], "kind": "kill"},
        {"cards": ["S2", "S2"], "kind": "kill"},
    ]
    assert answer["count"] == 8 and {p["kind"] for p in plays[2:]} == {"discard"}


def test_tractor_list_short_of_the_led_suit_plays_it_all_plus_any_cards():
    answer = tractor_list("C2 D3 D4 H5", ["CJ", "CJ"])
    assert answer["count"] == 3 and all("C2" in p["cards"] for p in answer["legal_plays"])


def test_tractor_list_caps_at_200_and_counts_the_rest():
    hand = " ".join(f"{s}{r}" for s in "HD" for r in "2346789TJQKA")
    answer = tractor_list(hand, ["C9", "C9", "C8", "C8"])
    assert len(answer["legal_plays"]) == MAX_LISTED
    assert answer["count"] == count_multisets([1] * 24, 4)
    assert answer["more"] == answer["count"] - MAX_LISTED


def test_tractor_list_with_a_play_also_rules_on_it():
    answer = tractor_list("C3 C8 C6 C6 HK", ["C9", "C9"], play=["C3", "C8"])
    assert answer["legal"] is False and answer["legal_plays"] == [
        {"cards": ["C6", "C6"], "kind": "follow"}
    ]


# --- guandan ---


def test_guandan_list_beats_a_pair_with_bombs_first_then_pairs_with_fewer_wilds_first():
    # level 7: H7 is wild. Four 9s make a bomb, five with the wild.
    answer = api.check(
        {
            "game": "guandan",
            "level": "7",
            "previous": ["S5", "H5"],
            "list": True,
            "hand": ["S9", "C9", "D9", "S9", "H7", "S6", "C6", "SK"],
        }
    )
    got = [(p["kind"], p["rank"], p["size"], p["wilds"]) for p in answer["legal_plays"]]
    assert got == [
        ("bomb", "9", 5, 1),
        ("bomb", "9", 4, 0),
        ("bomb", "9", 4, 1),
        ("pair", "K", 2, 1),
        ("pair", "9", 2, 0),
        ("pair", "9", 2, 1),
        ("pair", "6", 2, 0),
        ("pair", "6", 2, 1),
    ]
    assert answer["legal_plays"][0]["cards"] == ["S9", "S9", "C9", "D9", "H7"]


def test_guandan_list_of_leads_reads_wilds_in_straights():
    answer = api.check(
        {"game": "guandan", "level": "2", "list": True, "hand": ["S3", "C4", "D5", "S6", "H2"]}
    )
    straights = {(p["rank"], p["wilds"]) for p in answer["legal_plays"] if p["kind"] == "straight"}
    assert straights == {("7", 1), ("6", 1)}  # the wild stands for the 7 or for the 2


def test_guandan_list_needs_the_hand():
    answer = api.check([{"game": "guandan", "level": "2", "list": True}])
    assert answer[0]["field"] == "hand"


# --- the property: a listed play passes check, and a play that passes check is listed ---

GUANDAN_POOL = [c for c in DECK if c.rank in "A23456" or c.suit is None]


@st.composite
def guandan_case(draw):
    pool = GUANDAN_POOL * 2
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=1, max_size=9, unique=True))
    hand = [pool[i] for i in picks]
    level = draw(st.sampled_from([0, 1, 2]))  # 2, 3, 4: the heart one is wild
    previous = draw(
        st.one_of(st.none(), st.lists(st.sampled_from(GUANDAN_POOL), min_size=1, max_size=6))
    )
    return hand, level, previous


@given(guandan_case(), st.data())
@settings(max_examples=150, deadline=None)
def test_guandan_listing_agrees_with_check(case, data):
    hand, level, previous = case
    top = None
    if previous:
        readings = classify(previous, level)
        if not readings or max((Counter(previous) + Counter(hand)).values()) > 2:
            return  # no valid previous, or more copies than two decks hold
        top = readings[0]
    listed = legal_plays(hand, level, top)
    request = {"game": "guandan", "level": level, "previous": [str(c) for c in previous or []]}
    for play in listed:
        assert api.check(request | {"play": play["cards"]})["legal"], play
    keys = {(p["kind"], p["rank"], p["size"]) + play_key_of(p, level) for p in listed}
    subset = data.draw(st.lists(st.sampled_from(range(len(hand))), min_size=1, unique=True))
    cards = [hand[i] for i in subset]
    if api.check(request | {"play": [str(c) for c in cards]})["legal"]:
        beating = beating_readings(cards, top, level)
        assert any(
            (r.kind, r.rank, r.size) + play_key(r, cards, level)[3:] in keys for r in beating
        ), cards


def play_key_of(play: dict, level: int) -> tuple:
    cards = parse_cards(play["cards"], 2)
    readings = [
        r for r in classify(cards, level) if (r.kind, r.rank) == (play["kind"], play["rank"])
    ]
    return play_key(readings[0], cards, level)[3:]


TRACTOR_POOL = parse_cards(["C2", "C3", "C4", "C6", "S2", "S3", "S4", "H5", "D5", "LJ", "D7"], 3)
SPADES_FIVE = Ordering("S", "5")


@st.composite
def tractor_case(draw):
    hand = draw(st.lists(st.sampled_from(TRACTOR_POOL), min_size=1, max_size=10))
    lead = draw(
        st.sampled_from(
            [
                ["CJ"],
                ["CJ", "CJ"],
                ["CJ", "CJ", "CJ"],
                ["CJ", "CJ", "CQ", "CQ"],
                ["CA", "CA", "CK"],
                ["SA", "SA"],
                ["DA"],
                ["DA", "DA", "DK", "DQ"],
                ["DA", "DA", "DK", "DK", "DQ", "DQ"],
            ]
        )
    )
    lead = parse_cards(lead, 3)
    if max((Counter(hand) + Counter(lead)).values()) > 3 or len(hand) < len(lead):
        return None
    return hand, lead


@given(tractor_case(), st.data())
@settings(max_examples=150, deadline=None)
def test_tractor_listing_agrees_with_check(case, data):
    if case is None:
        return
    hand, lead = case
    plays, total = legal_follows(SPADES_FIVE, hand, lead)
    plays = list(plays)
    listed = [tuple(sorted(p["cards"])) for p in plays]
    assert len(listed) == total == len(set(listed))
    request = {
        "game": "tractor",
        "trump": "S",
        "level": "5",
        "hand": [str(c) for c in hand],
        "lead": [str(c) for c in lead],
    }
    for play in plays:
        ruling = api.check(request | {"play": play["cards"]})
        assert ruling["legal"], play
        assert ruling["kill"] == (play["kind"] == "kill"), play
    pick = data.draw(
        st.lists(
            st.sampled_from(range(len(hand))), min_size=len(lead), max_size=len(lead), unique=True
        )
    )
    cards = [hand[i] for i in pick]
    if api.check(request | {"play": [str(c) for c in cards]})["legal"]:
        assert tuple(sorted(str(c) for c in cards)) in set(listed)


def test_multiset_combinations_match_their_count():
    items = [("a", 3), ("b", 1), ("c", 2)]
    for size in range(7):
        combos = list(multiset_combinations(items, size))
        assert len(combos) == len(set(combos)) == count_multisets([3, 1, 2], size)


def test_tractor_list_kill_reading_strict_and_flexible_against_a_pair_and_single_throw():
    throw = ["CA", "CA", "CK"]
    strict = tractor_list("S2 S2 S2 S3", throw)
    kills = [p["cards"] for p in strict["legal_plays"] if p["kind"] == "kill"]
    assert kills == [["S3", "S2", "S2"]]
    flexible = tractor_list("S2 S2 S2 S3", throw, settings={"tractor_kill_reading": "flexible"})
    kills = [p["cards"] for p in flexible["legal_plays"] if p["kind"] == "kill"]
    assert sorted(kills) == [["S2", "S2", "S2"], ["S3", "S2", "S2"]]


def test_tractor_list_many_kills_are_counted_not_all_listed():
    # void in clubs with every trump single from S2 up: each 3 trumps kill a 3-single throw
    hand = "S2 S3 S4 S6 S7 S8 S9 ST SJ SQ SK SA"
    answer = tractor_list(hand, ["CA", "CK", "CQ"])
    assert answer["count"] == count_multisets([1] * 12, 3) == 220
    assert len(answer["legal_plays"]) == MAX_LISTED and answer["more"] == 20
    assert answer["legal_plays"][0] == {"cards": ["SA", "SK", "SQ"], "kind": "kill"}


CHENGYU_DECK = [c for c in DECK if c.suit]


@given(
    st.lists(st.sampled_from(CHENGYU_DECK), min_size=1, max_size=13, unique=True),
    st.integers(0, 3),
    st.sampled_from("SHCD"),
)
@settings(max_examples=100, deadline=None)
def test_chengyu_listing_agrees_with_check(cards, in_trick, trump):
    trick, hand = [str(c) for c in cards[:in_trick]], [str(c) for c in cards[in_trick:]]
    if not hand:
        return
    listed = {p["cards"][0] for p in chengyu_list(hand, trick, trump)["legal_plays"]}
    legal = {
        card
        for card in hand
        if api.check(
            {"game": "chengyu", "trump": trump, "hand": hand, "trick": trick, "play": card}
        )["legal"]
    }
    assert listed == legal


@pytest.mark.parametrize(
    "previous",
    [
        None,
        ["S5"],
        ["S4", "C4"],
        ["S3", "C3", "D3", "S6", "C6"],
        ["S3", "C4", "D5", "S6", "C7"],
        ["S4", "S4", "C4", "D4"],
    ],
)
def test_guandan_listing_equals_every_legal_subset_of_a_hand_with_two_wilds(previous):
    from itertools import combinations

    level = 5  # 7: H7 is wild
    hand = parse_cards(["H7", "H7", "S4", "C4", "S5", "D6", "S8", "S8", "LJ", "BJ"], 2)
    top = classify(parse_cards(previous, 2), level)[0] if previous else None
    listed = {
        (p["kind"], p["rank"], p["size"]) + play_key_of(p, level)
        for p in legal_plays(hand, level, top)
    }
    legal = set()
    for size in range(1, len(hand) + 1):
        for picked in set(combinations(sorted(hand, key=str), size)):
            for reading in beating_readings(picked, top, level):
                legal.add(
                    (reading.kind, reading.rank, reading.size)
                    + play_key(reading, list(picked), level)[3:]
                )
    assert listed == legal


@pytest.mark.parametrize(
    "hand",
    ["C2 C2 C2 C3 C3 C4 C6 S2 S2", "S2 S2 S2 S3 S3 H5 H5 LJ D7", "C2 C3 S2 S2 S3 S3 D7 D7 D8"],
)
@pytest.mark.parametrize(
    "lead",
    [
        ["CJ", "CJ", "CQ", "CQ"],
        ["CJ", "CJ", "CJ", "CQ", "CQ", "CQ"],
        ["CA", "CA", "CK"],
        ["CA"],
        ["SA", "SA"],
    ],
)
@pytest.mark.parametrize("reading", ["strict", "flexible"])
def test_tractor_listing_equals_every_legal_play_of_the_hand(hand, lead, reading):
    from itertools import combinations

    cards = parse_cards(hand.split(), 3)
    lead = parse_cards(lead, 3)
    plays, total = legal_follows(SPADES_FIVE, cards, lead, reading)
    listed = {tuple(sorted(p["cards"])): p["kind"] == "kill" for p in plays}
    legal = {}
    for picked in set(combinations(sorted(cards, key=str), len(lead))):
        ruling = check_follow(SPADES_FIVE, cards, lead, list(picked), reading)
        if ruling["legal"]:
            legal[tuple(sorted(str(c) for c in picked))] = ruling["kill"]
    assert listed == legal and total == len(legal)
