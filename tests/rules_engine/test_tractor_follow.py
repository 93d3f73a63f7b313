"""Following (跟牌) and killing (杀牌) in tractor (SPEC 4.3, seed 三.2(4), 三.4)."""

import pytest

from rules_engine.errors import RulesError
from tests.rules_engine.tractor_helpers import follow

OTHER = "H2 H3 H4"


def legal(hand, lead, play):
    return follow(hand, lead, play)["legal"]


def test_follow_plays_as_many_cards_as_were_led():
    assert not legal("C3 C8 C9", "CJ CJ", "C3")


def test_must_follow_suit_while_holding_it():
    assert not legal("C3 C8 H2", "CJ CJ", "C3 H2")
    assert legal("C3 C8 H2", "CJ CJ", "C3 C8")


def test_short_in_the_led_suit_plays_all_of_it_then_anything():
    assert legal("C3 H2 H3", "CJ CJ", "C3 H3")
    assert not legal("C3 H2 H3", "CJ CJ", "H2 H3")


def test_trump_counts_as_one_suit_when_following():
    # a level card and a joker follow a trump lead
    assert legal("H5 LJ C2", "S9 S9", "H5 LJ")
    assert not legal("H5 LJ C2", "S9 S9", "H5 C2")


def test_pair_lead_must_be_followed_by_a_pair():
    assert not legal("C3 C8 C9 C9", "CJ CJ", "C3 C8")
    assert legal("C3 C8 C9 C9", "CJ CJ", "C9 C9")


def test_pair_lead_a_triple_is_not_exempt_and_must_give_a_pair():
    assert not legal("C3 C8 C9 C9 C9", "CJ CJ", "C3 C9")
    assert legal("C3 C8 C9 C9 C9", "CJ CJ", "C9 C9")


def test_triple_lead_followed_by_a_triple_first():
    assert not legal("C3 C3 C8 C8 C8", "CJ CJ CJ", "C3 C3 C8")
    assert legal("C3 C3 C8 C8 C8", "CJ CJ CJ", "C8 C8 C8")


def test_triple_lead_without_triple_must_be_followed_by_a_pair():
    assert not legal("C3 C7 C8 C8", "CJ CJ CJ", "C3 C7 C8")
    assert legal("C3 C7 C8 C8", "CJ CJ CJ", "C3 C8 C8")


def test_tractor_lead_followed_by_a_tractor_first():
    hand = "C2 C2 C3 C3 C8 C8 C9"
    assert not legal(hand, "CJ CJ CQ CQ", "C2 C2 C8 C8")
    assert legal(hand, "CJ CJ CQ CQ", "C2 C2 C3 C3")


def test_tractor_lead_without_tractor_followed_by_two_loose_pairs():
    hand = "C2 C2 C7 C8 C8 C9"
    assert not legal(hand, "CJ CJ CQ CQ", "C2 C2 C7 C9")
    assert legal(hand, "CJ CJ CQ CQ", "C2 C2 C8 C8")


def test_triple_need_not_follow_a_tractor_when_loose_pairs_suffice():
    assert legal("C2 C2 C7 C7 C9 C9 C9", "CJ CJ CQ CQ", "C2 C2 C7 C7")


def test_triple_must_give_a_pair_when_loose_pairs_are_short():
    hand = "C2 C2 C7 C9 C9 C9"
    assert not legal(hand, "CJ CJ CQ CQ", "C2 C2 C7 C9")
    assert legal(hand, "CJ CJ CQ CQ", "C2 C2 C9 C9")


def test_triple_joining_a_pair_into_a_tractor_must_give_the_tractor():
    hand = "C2 C2 C7 C7 C8 C8 C8"
    assert not legal(hand, "CJ CJ CQ CQ", "C2 C2 C7 C7")
    assert legal(hand, "CJ CJ CQ CQ", "C7 C7 C8 C8")


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


def test_a_throw_is_followed_unit_by_unit():
    # lead: a pair of aces and a king; the pair must be answered by a pair
    assert not legal("C2 C2 C7 C8", "CA CA CK", "C2 C7 C8")
    assert legal("C2 C2 C7 C8", "CA CA CK", "C2 C2 C8")


def test_play_not_in_the_hand_is_an_error():
    with pytest.raises(RulesError) as err:
        follow("C3 C8", "CJ CJ", "C3 C9")
    assert err.value.field == "play" and "C9" in err.value.message


def test_a_lead_mixing_suits_is_an_error():
    with pytest.raises(RulesError) as err:
        follow("C3 C8", "CJ HJ", "C3 C8")
    assert err.value.field == "lead"
