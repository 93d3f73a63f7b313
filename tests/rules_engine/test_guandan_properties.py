"""Hypothesis properties of guandan classification and comparison."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import api
from rules_engine.cards import DECK, RANKS, card_text, parse_cards
from rules_engine.guandan import classify, reading_beats
from rules_engine.guandan.combos import ACE, BJ, LJ, stand_ins

LEVEL = "7"
LEVEL_RANK = RANKS.index("7")
# A pool dense in structure: A..6 and the wild heart 7 in two decks, plus the jokers.
POOL = [c for c in DECK if c.rank in ("A", "2", "3", "4", "5", "6") or c.suit is None]
POOL = POOL * 2 + [DECK[DECK.index(next(c for c in DECK if c.suit == "H" and c.rank == "7"))]] * 2

card_sets = st.lists(
    st.integers(min_value=0, max_value=len(POOL) - 1), min_size=1, max_size=10, unique=True
).map(lambda indexes: [POOL[i] for i in indexes])


def _positions(ranks):
    """Run positions 0..13 (A low 0, A high 13) that make ``ranks`` consecutive, or None."""
    for ace in (0, 13):
        pos = sorted(ace if r == ACE else r + 1 for r in ranks)
        if pos == list(range(pos[0], pos[0] + len(pos))):
            return pos
    return None


def shape_is(kind, ranks):
    """An independent statement of each kind's shape, over the ranks the cards stand for."""
    counts = sorted(((ranks.count(r), r) for r in set(ranks)), reverse=True)
    distinct = [r for _, r in counts]
    widths = [n for n, _ in counts]
    no_jokers = LJ not in ranks and BJ not in ranks
    if kind in ("single", "pair", "triple"):
        return len(distinct) == 1 and len(ranks) == {"single": 1, "pair": 2, "triple": 3}[kind]
    if kind == "bomb":
        return len(distinct) == 1 and len(ranks) >= 4 and no_jokers
    if kind == "full_house":
        return widths == [3, 2] and distinct[0] < LJ
    if kind == "joker_bomb":
        return sorted(ranks) == [LJ, LJ, BJ, BJ]
    runs = {"straight": (5, 1), "straight_flush": (5, 1), "tube": (3, 2), "plate": (2, 3)}
    length, width = runs[kind]
    return no_jokers and widths == [width] * length and _positions(distinct) is not None


@settings(max_examples=300, deadline=None)
@given(card_sets)
def test_a_readings_cards_are_exactly_the_input_cards(cards):
    for reading in classify(cards, LEVEL):
        ranks = stand_ins(cards, reading, LEVEL)
        assert len(ranks) == len(cards) == reading.size
        for card, rank in zip(cards, ranks, strict=True):
            wild = card.suit == "H" and card.rank == "7"
            assert wild or rank == RANKS.index(card.rank) if card.suit else rank >= LJ
        assert shape_is(reading.kind, ranks), (reading, [card_text(c) for c in cards], ranks)


@settings(max_examples=200, deadline=None)
@given(card_sets, st.randoms(use_true_random=False))
def test_classification_does_not_depend_on_card_order(cards, rnd):
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert classify(cards, LEVEL) == classify(shuffled, LEVEL)


KNOWN_SETS = ["LJ LJ BJ BJ", "SA S2 S3 S4 S5", "S2 S3 S4 S5 H7", "C3 C4 C5 C6 H7", "S5 S5 C5 D5"]


def _corpus():
    rnd = random.Random(7)
    readings = {r for text in KNOWN_SETS for r in classify(parse_cards(text.split(), 2), LEVEL)}
    for _ in range(4000):
        cards = rnd.sample(POOL, rnd.randint(1, 10))
        readings.update(classify(cards, LEVEL))
    return sorted(readings, key=lambda r: (r.kind, r.size, r.value))


CORPUS = _corpus()
BY_KIND = {
    kind: list(group) for kind, group in itertools.groupby(CORPUS, key=lambda r: (r.kind, r.size))
}


def test_the_corpus_covers_every_kind():
    assert {kind for kind, _ in BY_KIND} == {
        "single",
        "pair",
        "triple",
        "full_house",
        "straight",
        "tube",
        "plate",
        "bomb",
        "straight_flush",
        "joker_bomb",
    }


@given(st.sampled_from(CORPUS))
def test_beats_is_irreflexive(reading):
    assert not reading_beats(reading, reading)


same_kind_triples = st.sampled_from(sorted(BY_KIND)).flatmap(
    lambda key: st.tuples(*[st.sampled_from(BY_KIND[key])] * 3)
)


def _assert_transitive(triple):
    for a, b, c in itertools.permutations(triple):
        if reading_beats(a, b) and reading_beats(b, c):
            assert reading_beats(a, c), (a, b, c)


@given(same_kind_triples)
def test_beats_is_transitive_among_same_kind_plays(triple):
    _assert_transitive(triple)


@given(st.tuples(*[st.sampled_from(CORPUS)] * 3))
def test_beats_is_transitive_across_bombs_and_non_bombs(triple):
    _assert_transitive(triple)


def test_transitivity_is_not_vacuous_every_kind_has_a_chain_of_three():
    for key, group in BY_KIND.items():
        if len({r.value for r in group}) >= 3:
            low, mid, high = sorted(group, key=lambda r: r.value)[:: max(1, len(group) // 3)][:3]
            assert reading_beats(high, mid) and reading_beats(mid, low), key


@given(st.sampled_from(DECK), st.integers(min_value=3, max_value=6))
def test_no_set_with_more_copies_than_two_decks_is_classified(card, copies):
    answer = api.classify([{"game": "guandan", "level": "2", "cards": [card_text(card)] * copies}])
    assert "more copies than 2 decks hold" in answer[0]["error"]


@pytest.mark.parametrize("level", ["2", "A"])
def test_wild_card_stands_for_the_missing_card_of_a_straight(level):
    cards = parse_cards(["S3", "C4", "H" + level, "D6", "S7"], 2)
    (reading,) = classify(cards, level)
    assert (reading.kind, reading.rank) == ("straight", "7")
    assert stand_ins(cards, reading, level)[2] == RANKS.index("5")
