"""Following (跟牌) and killing (杀牌) in tractor (SPEC 4.3, seed 三.2(4), 三.4)."""

import pytest

from rules_engine.errors import RulesError
from tests.rules_engine.tractor_helpers import follow

OTHER = "H2 H3 H4"


def legal(hand, lead, play):
    return follow(hand, lead, play)["legal"]


def test_follow_plays_as_many_cards_as_were_led():
    assert not legal("C3 C8 C9", "CJ CJ", "C3")


FOLLOW_RULES = [
    # (hand, lead, a legal follow, an illegal one); the id names the rule pinned
    # a level card and a joker follow a trump lead
    pytest.param("H5 LJ C2", "S9 S9", "H5 LJ", "H5 C2", id="trump_counts_as_one_suit"),
    # the pair of a throw (a pair of aces and a king) must be answered by a pair
    pytest.param("C2 C2 C7 C8", "CA CA CK", "C2 C2 C8", "C2 C7 C8", id="throw_followed_by_unit"),
    pytest.param("C3 C8 H2", "CJ CJ", "C3 C8", "C3 H2", id="must_follow_suit_while_holding_it"),
    pytest.param(
        "C3 H2 H3",
        "CJ CJ",
        "C3 H3",
        "H2 H3",
        id="short_in_the_led_suit_plays_all_of_it_then_anything",
    ),
    pytest.param(
        "C3 C8 C9 C9", "CJ CJ", "C9 C9", "C3 C8", id="pair_lead_must_be_followed_by_a_pair"
    ),
    pytest.param(
        "C3 C8 C9 C9 C9",
        "CJ CJ",
        "C9 C9",
        "C3 C9",
        id="pair_lead_a_triple_is_not_exempt_and_must_give_a_pair",
    ),
    pytest.param(
        "C3 C3 C8 C8 C8",
        "CJ CJ CJ",
        "C8 C8 C8",
        "C3 C3 C8",
        id="triple_lead_followed_by_a_triple_first",
    ),
    pytest.param(
        "C3 C7 C8 C8",
        "CJ CJ CJ",
        "C3 C8 C8",
        "C3 C7 C8",
        id="triple_lead_without_triple_must_be_followed_by_a_pair",
    ),
    pytest.param(
        "C2 C2 C3 C3 C8 C8 C9",
        "CJ CJ CQ CQ",
        "C2 C2 C3 C3",
        "C2 C2 C8 C8",
        id="tractor_lead_followed_by_a_tractor_first",
    ),
    pytest.param(
        "C2 C2 C7 C8 C8 C9",
        "CJ CJ CQ CQ",
        "C2 C2 C8 C8",
        "C2 C2 C7 C9",
        id="tractor_lead_without_tractor_followed_by_two_loose_pairs",
    ),
    pytest.param(
        "C2 C2 C7 C9 C9 C9",
        "CJ CJ CQ CQ",
        "C2 C2 C9 C9",
        "C2 C2 C7 C9",
        id="triple_must_give_a_pair_when_loose_pairs_are_short",
    ),
    pytest.param(
        "C2 C2 C7 C7 C8 C8 C8",
        "CJ CJ CQ CQ",
        "C7 C7 C8 C8",
        "C2 C2 C7 C7",
        id="triple_joining_a_pair_into_a_tractor_must_give_the_tractor",
    ),
]


@pytest.mark.parametrize(("hand", "lead", "good", "bad"), FOLLOW_RULES)
def test_follow_rule(hand, lead, good, bad):
    assert legal(hand, lead, good), good
    answer = follow(hand, lead, bad)
    assert not answer["legal"], bad
    assert answer["reason"]


def test_triple_need_not_follow_a_tractor_when_loose_pairs_suffice():
    assert legal("C2 C2 C7 C7 C9 C9 C9", "CJ CJ CQ CQ", "C2 C2 C7 C7")


LEAD_33 = "CJ CJ CJ CQ CQ CQ"


@pytest.mark.parametrize(
    ("order", "hand", "good", "bad"),
    [
        ("a", "C2 C2 C2 C3 C3 C3 C7 C7", "C2 C2 C2 C3 C3 C3", "C2 C2 C2 C7 C7 C3"),
        ("a", "C2 C2 C2 C7 C7 C7 C9 C9", "C2 C2 C2 C7 C7 C7", "C2 C2 C2 C9 C9 C7"),
        ("b", "C2 C2 C2 C7 C7 C9 CT", "C2 C2 C2 C7 C7 C9", "C2 C2 C2 C7 C9 CT"),
        ("b", "C2 C2 C2 C3 C3 C4 C4 C7", "C2 C2 C2 C3 C3 C7", "C3 C3 C4 C4 C2 C7"),
        ("c", "C2 C2 C2 C6 C7 C8 C9", "C2 C2 C2 C6 C7 C8", "C6 C7 C8 C9 C2 C2"),
        ("d", "C2 C2 C3 C3 C8 C8 C9", "C2 C2 C3 C3 C9 C8", "C2 C2 C8 C8 C9 C3"),
        ("e", "C2 C2 C7 C7 C9 CT CK", "C2 C2 C7 C7 C9 CT", "C2 C2 C7 C9 CT CK"),
        ("f", "C2 C2 C7 C8 C9 CT CK", "C2 C2 C7 C8 C9 CT", "C2 C7 C8 C9 CT CK"),
        ("g", "C2 C4 C7 C8 C9 CT CK", "C2 C4 C7 C8 C9 CT", None),
    ],
)
def test_three_plus_three_lead_is_followed_in_order_a_to_g(order, hand, good, bad):
    assert legal(hand, LEAD_33, good), order
    if bad:
        answer = follow(hand, LEAD_33, bad)
        assert not answer["legal"], order
        assert "must play" in answer["reason"]


def test_three_plus_three_lead_takes_two_loose_pairs_not_three():
    # e. is "two loose pairs + singles": a third pair is no duty
    assert legal("C2 C2 C7 C7 C9 C9 CK", LEAD_33, "C2 C2 C7 C7 C9 CK")


def test_void_in_the_led_suit_may_play_anything():
    answer = follow("H2 H3 S4", "CJ CJ", "H2 S4")
    assert answer["legal"] and not answer["kill"]


def test_kill_needs_trumps_in_exactly_the_led_form():
    assert follow("S4 S4 H2", "CJ CJ", "S4 S4")["kill"]
    assert not follow("S4 S6 H2", "CJ CJ", "S4 S6")["kill"]  # not a pair: counts as a follow
    assert follow("S3 S3 S4 S4 H2", "CJ CJ CQ CQ", "S3 S3 S4 S4")["kill"]
    assert not follow("S3 S3 S7 S7 H2", "CJ CJ CQ CQ", "S3 S3 S7 S7")["kill"]


def test_kill_of_a_triple_needs_a_trump_triple():
    assert follow("S4 S4 S4", "CJ CJ CJ", "S4 S4 S4")["kill"]
    assert not follow("S4 S4 S6", "CJ CJ CJ", "S4 S4 S6")["kill"]


def test_two_trump_triples_kill_three_pairs():
    assert follow("S2 S2 S2 S3 S3 S3", "CJ CJ CQ CQ CK CK", "S2 S2 S2 S3 S3 S3")["kill"]


def test_trump_lead_is_never_killed():
    assert not follow("H2 H2", "S9 S9", "H2 H2")["kill"]


def test_play_not_in_the_hand_is_an_error():
    with pytest.raises(RulesError) as err:
        follow("C3 C8", "CJ CJ", "C3 C9")
    assert err.value.field == "play" and "C9" in err.value.message


def test_a_lead_mixing_suits_is_an_error():
    with pytest.raises(RulesError) as err:
        follow("C3 C8", "CJ HJ", "C3 C8")
    assert err.value.field == "lead"
