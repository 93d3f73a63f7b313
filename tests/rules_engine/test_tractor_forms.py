"""Tractor trump order and forms (SPEC 4.3, seed 三.2)."""

import pytest

from rules_engine.tractor import Ordering, form_of, trick_winner
from tests.rules_engine.tractor_helpers import SPADES_FIVE, cards


def kind(*texts, ordering=SPADES_FIVE):
    form = form_of(cards(*texts), ordering)
    return None if form is None else (form.kind, form.length)


def test_level_cards_and_jokers_are_trump():
    for text in ("LJ", "BJ", "H5", "C5", "D5", "S5", "S2", "SA"):
        assert SPADES_FIVE.is_trump(cards(text)[0]), text
    for text in ("H6", "CA", "D2"):
        assert not SPADES_FIVE.is_trump(cards(text)[0]), text


def test_trump_order_big_joker_small_joker_trump_level_other_levels_then_trump_suit():
    order = ["SA", "H5", "S5", "LJ", "BJ"]
    positions = [SPADES_FIVE.position(cards(t)[0]) for t in order]
    assert positions == sorted(positions) and len(set(positions)) == len(positions)


def test_level_cards_of_other_suits_are_equal_and_never_a_pair():
    h5, c5 = cards("H5", "C5")
    assert SPADES_FIVE.position(h5) == SPADES_FIVE.position(c5)
    assert kind("H5", "C5") is None


def test_pair_is_two_identical_cards():
    assert kind("C9", "C9") == ("pair", 1)
    assert kind("C9", "D9") is None


def test_triple_is_three_identical_cards():
    assert kind("C9", "C9", "C9") == ("triple", 1)


def test_tractor_of_consecutive_pairs():
    assert kind("C9", "C9", "CT", "CT") == ("tractor", 2)
    assert kind("C9", "C9", "CT", "CT", "CJ", "CJ") == ("tractor", 3)


def test_tractor_of_consecutive_triples():
    assert kind("C9", "C9", "C9", "CT", "CT", "CT") == ("tractor", 2)


def test_tractor_jumps_over_the_level_rank():
    assert kind("C4", "C4", "C6", "C6") == ("tractor", 2)


def test_tractor_needs_consecutive_ranks():
    assert kind("C9", "C9", "CJ", "CJ") is None


def test_pairs_and_triples_do_not_mix_in_a_tractor():
    assert kind("C9", "C9", "C9", "CT", "CT") is None  # 三拖二
    assert kind("C9", "C9", "CT", "CT", "CT") is None  # 二拖三


def test_tractor_has_no_wrap_from_ace_to_two():
    assert kind("CA", "CA", "C2", "C2") is None


def test_trump_ace_pair_joins_other_level_pair_and_trump_level_pair():
    assert kind("SA", "SA", "H5", "H5", "S5", "S5") == ("tractor", 3)
    assert kind("S5", "S5", "LJ", "LJ", "BJ", "BJ") == ("tractor", 3)


def test_without_trump_suit_level_pair_joins_small_joker_pair():
    no_trump = Ordering(None, "5")
    assert kind("H5", "H5", "LJ", "LJ", ordering=no_trump) == ("tractor", 2)


def test_a_lead_mixing_suits_is_no_form():
    assert kind("C9", "H9") is None


def winner(*plays):
    return trick_winner(SPADES_FIVE, [cards(*p.split()) for p in plays])


def test_two_triples_beat_three_pairs():
    assert winner("CJ CJ CQ CQ CK CK", "C2 C2 C2 C3 C3 C3", "C6 C7 C8 C9 D2 D3") == 1


def test_two_triples_in_trump_kill_three_pairs():
    assert winner("CJ CJ CQ CQ CK CK", "S2 S2 S2 S3 S3 S3", "C6 C7 C8 C9 D2 D3") == 1


def test_special_rule_is_not_inferred_for_other_shapes():
    # two triples that are not consecutive do not beat three consecutive pairs,
    assert winner("CJ CJ CQ CQ CK CK", "C2 C2 C2 C7 C7 C7", "C6 C8 C9 CT D2 D3") == 0
    # nor do three pairs beat two triples
    assert winner("C2 C2 C2 C3 C3 C3", "CJ CJ CQ CQ CK CK", "C6 C8 C9 CT D2 D3") == 0


def test_same_form_higher_in_the_led_suit_wins():
    assert winner("C9 C9", "CK CK", "CT CT", "C2 C3") == 1


def test_kill_beats_the_lead_and_a_higher_kill_overrides_it():
    assert winner("CA CA", "S3 S3", "S8 S8", "C2 C3") == 2


def test_trumps_not_in_the_led_form_do_not_kill():
    assert winner("CA CA", "S3 S4", "C2 C3", "C4 C6") == 0


def test_equal_plays_leave_the_trick_with_the_earlier():
    assert winner("CA", "H5", "C5", "D5") == 1  # other suits' level cards are equal


@pytest.mark.parametrize("bad", [["C9", "H9"], []])
def test_trick_needs_one_suit_lead(bad):
    from rules_engine.errors import RulesError

    with pytest.raises(RulesError):
        trick_winner(SPADES_FIVE, [cards(*bad)])
