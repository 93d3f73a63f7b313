"""Hypothesis properties of idiom-chain poker: 必出 always honoured, 13 tricks a deal."""

from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine.cards import SUITS, Card
from rules_engine.chengyu import Ring, check_play, replay_deal, resolve_trick
from rules_engine.chengyu.sample import play_deal

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
RING = ("D", "C", "H", "S")
DECK = [Card(s, r) for s in RING for r in RANKS]


def _neighbours(head: Card, trump: str) -> set[Card]:
    """The seed's links, written out independently of the engine."""
    i = RANKS.index(head.rank)
    near = {Card(head.suit, RANKS[j]) for j in (i - 1, i + 1) if 0 <= j < 13}
    nxt, prev = RING[(RING.index(head.suit) + 1) % 4], RING[RING.index(head.suit) - 1]
    if head.rank == "K" and trump not in (head.suit, nxt):
        near.add(Card(nxt, "A"))
    if head.rank == "A" and trump not in (head.suit, prev):
        near.add(Card(prev, "K"))
    return near


@given(
    st.permutations(DECK).map(lambda d: (d[:13], d[13:16])),
    st.sampled_from(SUITS),
    st.data(),
)
@settings(max_examples=300, deadline=None)
def test_a_legal_play_never_leaves_bichu_unmet(cards, trump, data):
    hand, trick = cards
    trick = trick[: data.draw(st.integers(1, 3))]
    card = data.draw(st.sampled_from(hand))
    answer = check_play(Ring(trump), hand, trick, card)
    head = resolve_trick(Ring(trump), "E", trick).head
    chains = [c for c in hand if c in _neighbours(head, trump)]
    if answer["legal"]:
        if chains:
            assert card in chains
        elif any(c.suit == head.suit for c in hand):
            assert card.suit == head.suit
    else:
        assert chains or any(c.suit == head.suit for c in hand)


@given(st.permutations(DECK), st.sampled_from(SUITS), st.randoms(use_true_random=False))
@settings(max_examples=60, deadline=None)
def test_a_deals_tricks_always_sum_to_thirteen(deck, trump, rng):
    ring = Ring(trump)
    hands = {seat: list(deck[i * 13 : i * 13 + 13]) for i, seat in enumerate("ENWS")}
    tricks = play_deal(ring, hands, rng.choice)
    replay = replay_deal(ring, tricks)
    assert sum(replay.tricks.values()) == 13 and replay.first_illegal is None
    assert replay.winners[:-1] == [leader for leader, _ in tricks[1:]]
