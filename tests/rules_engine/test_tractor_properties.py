"""Hypothesis properties of tractor following and deal scoring."""

from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine.api import score
from tests.rules_engine.tractor_helpers import follow

# clubs in plain order for level 5 (the 5 is trump): consecutive in this list = adjacent
PLAIN = ["2", "3", "4", "6", "7", "8", "9"]
LEADS = {
    "pair": "CA CA",
    "triple": "CA CA CA",
    "tractor": "CQ CQ CK CK",
    "three_plus_three": "CK CK CK CA CA CA",
}

hands = st.tuples(
    st.lists(st.sampled_from(PLAIN), min_size=1, max_size=9).map(
        lambda ranks: [r for r, n in Counter(ranks).items() for _ in range(min(n, 3))]
    ),
    st.lists(st.sampled_from(["H2", "H3", "D4", "S9"]), max_size=3, unique=True),
)


def _units(ranks: list[str], size: int) -> list[int]:
    """Plain-order indices of ranks held at least ``size`` times."""
    counts = Counter(ranks)
    return sorted(PLAIN.index(r) for r, n in counts.items() if n >= size)


def _has_run(indices: list[int]) -> bool:
    return any(b == a + 1 for a, b in zip(indices, indices[1:], strict=False))


def _duties(ranks: list[str], lead: str) -> tuple:
    """What the seed demands, read on the club ranks: a tuple compared as a priority."""
    triples, pairs = _units(ranks, 3), _units(ranks, 2)
    if lead == "pair":
        return (min(len(pairs), 1),)
    if lead == "triple":
        return (min(len(triples), 1), min(len(pairs), 1))
    if lead == "tractor":
        return (_has_run(pairs), min(len(pairs), 2))
    if len(triples) >= 2:  # a
        return (2, _has_run(triples), 0, 0, 0)
    others = [p for p in pairs if p not in triples]
    if triples:  # b, c
        return (1, False, min(len(others), 1), 0, 0)
    return (0, False, 0, _has_run(pairs), min(len(pairs), 2))  # d, e, f, g


def _play_meets(play: list[str], hand: list[str], lead: str) -> bool:
    """The play holds what the hand's best obligation demands."""
    best = _duties(hand, lead)
    return _duties(play, lead) >= best


@given(hands, st.sampled_from(sorted(LEADS)), st.randoms(use_true_random=False))
@settings(max_examples=300, deadline=None)
def test_a_legal_follow_never_leaves_a_held_obligation_unmet(hand, lead_name, rng):
    clubs, others = hand
    lead = LEADS[lead_name]
    m = len(lead.split())
    hand_cards = ["C" + r for r in clubs] + others
    play = rng.sample(hand_cards, min(m, len(hand_cards)))
    if len(play) < m:
        return
    if not follow(" ".join(hand_cards), lead, " ".join(play))["legal"]:
        return
    played_clubs = [c[1:] for c in play if c.startswith("C")]
    assert len(played_clubs) == min(len(clubs), m)  # suit first
    if len(clubs) > m:
        assert _play_meets(played_clubs, clubs, lead_name)


@given(hands, st.sampled_from(sorted(LEADS)))
@settings(max_examples=150, deadline=None)
def test_every_hand_has_a_legal_follow_and_it_meets_the_obligations(hand, lead_name):
    clubs, others = hand
    lead = LEADS[lead_name]
    m = len(lead.split())
    hand_cards = ["C" + r for r in clubs] + others
    if len(hand_cards) < m:
        return
    legal = [
        play
        for play in combinations(hand_cards, m)
        if follow(" ".join(hand_cards), lead, " ".join(play))["legal"]
    ]
    assert legal
    if len(clubs) > m:
        for play in legal:
            assert _play_meets([c[1:] for c in play if c.startswith("C")], clubs, lead_name)


def _dealer_gain(points: int, bottom: int = 0, multiplier: int = 2, penalty: int = 0) -> int:
    deal = {"dealer": "EW", "defender_points": points}
    if bottom:
        deal |= {"bottom_points": bottom, "bottom_multiplier": multiplier}
    if penalty:
        deal["failed_throws"] = [{"side": "NS", "cards": penalty}]
    return score({"game": "tractor", "deals": [deal]})["level_difference"]


points = st.integers(0, 60).map(lambda n: n * 5)


# trick points up to 275 so that the 25-point bottom keeps within the decks' 300 (SPEC 4.3)
trick_points = st.integers(0, 55).map(lambda n: n * 5)


@given(
    trick_points,
    trick_points,
    st.sampled_from([0, 5, 10, 25]),
    st.sampled_from([2, 4, 8]),
    st.integers(0, 3),
)
@settings(max_examples=200, deadline=None)
def test_tractor_deal_scoring_is_monotonic_in_the_defenders_points(a, b, bottom, mult, pen):
    low, high = min(a, b), max(a, b)
    assert _dealer_gain(low, bottom, mult, pen) >= _dealer_gain(high, bottom, mult, pen)
