"""Guandan combinations and their order (SPEC 4.2)."""

import pytest

from rules_engine.cards import parse_cards
from rules_engine.errors import RulesError
from rules_engine.guandan import beats, classify
from rules_engine.guandan.combos import choose_reading, reading_beats


def cards(text: str):
    return parse_cards(text.split(), 2)


def readings(text: str, level: str = "2") -> list[tuple[str, str]]:
    return [(r.kind, r.rank) for r in classify(cards(text), level)]


def beats_text(play: str, previous: str, level: str = "2") -> bool:
    return beats(cards(play), cards(previous), level)


def test_single_pair_and_triple():
    assert readings("S9") == [("single", "9")]
    assert readings("S9 D9") == [("pair", "9")]
    assert readings("S9 D9 C9") == [("triple", "9")]
    assert readings("S9 D8") == []


def test_pair_of_equal_jokers_is_a_pair_but_small_and_big_joker_are_not():
    assert readings("LJ LJ") == [("pair", "LJ")]
    assert readings("BJ BJ") == [("pair", "BJ")]
    assert readings("LJ BJ") == []


def test_full_house_is_a_triple_with_a_pair_and_ranks_by_the_triple():
    assert readings("S9 D9 C9 S3 H3") == [("full_house", "9")]
    assert beats_text("S9 D9 C9 S3 H3", "S8 D8 C8 SA HA")
    assert not beats_text("S8 D8 C8 SA HA", "S9 D9 C9 S3 H3")


def test_full_house_may_carry_a_pair_of_jokers():
    assert readings("S9 D9 C9 LJ LJ") == [("full_house", "9")]


def test_straight_is_exactly_five_consecutive_cards():
    assert readings("S3 H4 C5 D6 S7") == [("straight", "7")]
    assert readings("S3 H4 C5 D6") == []
    assert readings("S3 H4 C5 D6 S7 S8") == []


def test_straight_a2345_and_10jqka_but_no_wrap_through_a():
    assert readings("SA H2 C3 D4 S5") == [("straight", "5")]
    assert readings("S10 HJ CQ DK SA") == [("straight", "A")]
    assert readings("SJ HQ CK DA S2") == []
    assert readings("SK HA C2 D3 S4") == []


def test_a2345_is_the_lowest_straight_and_10jqka_the_highest():
    assert beats_text("S2 H3 C4 D5 S6", "SA H2 C3 D4 S5")
    assert beats_text("S10 HJ CQ DK SA", "S9 H10 CJ DQ SK")


def test_tube_is_exactly_three_consecutive_pairs():
    assert readings("S7 H7 C8 D8 S9 H9") == [("tube", "9")]
    assert readings("S7 H7 C8 D8") == []
    assert readings("S7 H7 C8 D8 S9 H9 S10 H10") == []


def test_tube_with_a_low_and_a_high_but_not_in_the_middle():
    assert readings("SA HA C2 D2 S3 H3") == [("tube", "3")]
    assert readings("SQ HQ CK DK SA HA") == [("tube", "A")]
    assert readings("SK HK CA DA S2 H2") == []


def test_plate_is_exactly_two_consecutive_triples():
    assert readings("S7 H7 C7 S8 H8 C8") == [("plate", "8")]
    assert readings("SA HA CA S2 H2 C2") == [("plate", "2")]
    assert readings("SK HK CK SA HA CA") == [("plate", "A")]
    assert readings("SA HA CA S2 H2 C2 S3 H3 C3") == []


def test_bomb_is_four_or_more_of_a_rank():
    assert readings("S4 H4 C4 D4") == [("bomb", "4")]
    assert readings("S4 H4 C4 D4 S4 H4 C4 D4") == [("bomb", "4")]
    assert [r.size for r in classify(cards("S4 H4 C4 D4 S4"), "2")] == [5]


def test_straight_flush_is_five_of_a_suit_in_a_row_and_also_reads_as_a_straight():
    assert readings("S3 S4 S5 S6 S7") == [("straight_flush", "7"), ("straight", "7")]


def test_four_jokers_is_the_joker_bomb():
    assert readings("LJ LJ BJ BJ") == [("joker_bomb", "BJ")]


def test_rank_order_big_joker_small_joker_level_card_then_a_down_to_2():
    level = "5"
    order = ["S2", "S3", "S4", "S6", "SK", "SA", "S5", "LJ", "BJ"]
    for low, high in zip(order, order[1:], strict=False):
        assert beats_text(high, low, level), (high, low)
        assert not beats_text(low, high, level)


def test_level_card_takes_its_natural_place_in_straights():
    assert readings("S3 H4 C5 D6 S7", "5") == [("straight", "7")]
    assert beats_text("S4 H5 C6 D7 S8", "S3 H4 C5 D6 S7", "5")


def test_heart_level_card_is_wild_for_any_card():
    assert readings("S6 H7", "7") == [("pair", "6")]
    assert readings("S5 C5 H7", "7") == [("triple", "5")]
    assert readings("S3 H4 H7 D6 S8", "7") == []
    assert readings("S3 H4 H7 D6 C5", "7") == [("straight", "7"), ("straight", "6")]


def test_heart_level_card_fills_a_bomb():
    assert readings("S9 H9 C9 H7", "7") == [("bomb", "9")]


def test_heart_level_card_is_never_a_joker():
    assert readings("LJ H7", "7") == []
    assert readings("BJ BJ LJ H7", "7") == []


def test_other_hearts_and_other_level_cards_are_not_wild():
    assert readings("S6 H8", "7") == []
    assert readings("S6 S7", "7") == []


def test_two_wild_cards_alone_are_a_pair_of_level_cards():
    assert readings("H7 H7", "7") == [("pair", "7")]
    assert beats_text("H7 H7", "SA HA", "7")


def test_wild_cards_give_every_reading_of_six_cards():
    assert readings("S5 C5 S6 C6 H7 H7", "7") == [("tube", "7"), ("tube", "6"), ("plate", "6")]


def test_wild_cards_make_a_straight_flush_of_another_suit():
    assert ("straight_flush", "9") in readings("S5 S6 H7 H7 S9", "7")


def test_a_play_beats_only_the_same_kind_and_size():
    assert not beats_text("S9 H9", "S3")
    assert not beats_text("S9 H9 C9", "S3 H3")
    assert not beats_text("S7 H7 C8 D8 S9 H9", "S3 H3 C3 S4 H4 C4")


def test_an_equal_play_does_not_beat():
    assert not beats_text("S9 H9", "C9 D9")


def test_bombs_beat_every_non_bomb():
    assert beats_text("S4 H4 C4 D4", "SA HA CA S2 H2 C2")
    assert beats_text("S4 H4 C4 D4", "S10 HJ CQ DK SA")
    assert not beats_text("SA HA CA S2 H2 C2", "S4 H4 C4 D4")


def test_bomb_order_4_5_straight_flush_6_to_10_cards_then_four_jokers():
    chain = [
        "S3 H3 C3 D3",
        "SA HA CA DA",
        "S3 H3 C3 D3 S3",
        "SA HA CA DA SA",
        "S2 S3 S4 S5 S6",
        "S10 SJ SQ SK SA",
        "S3 H3 C3 D3 S3 H3",
        "S3 H3 C3 D3 S3 H3 C3",
        "S3 H3 C3 D3 S3 H3 C3 D3",
        "S5 C5 D5 S5 C5 D5 H5 H5 H7",
        "S5 C5 D5 S5 C5 D5 H5 H5 H7 H7",
        "LJ LJ BJ BJ",
    ]
    for low, high in zip(chain, chain[1:], strict=False):
        assert beats_text(high, low, "7"), (high, low)
        assert not beats_text(low, high, "7"), (low, high)


def test_same_size_bombs_by_rank_with_the_level_rank_above_a():
    assert beats_text("S5 H5 C5 D5", "SA HA CA DA", "5")


def test_straight_flushes_by_top_card():
    assert beats_text("H3 H4 H5 H6 H7", "SA S2 S3 S4 S5")
    assert not beats_text("SA S2 S3 S4 S5", "H3 H4 H5 H6 H7")


def test_previous_may_be_read_as_declared():
    previous = classify(cards("S5 C5 S6 C6 H7 H7"), "7")
    declared = choose_reading(previous, "tube", "6")
    play = classify(cards("S7 C7 S8 C8 S9 C9"), "7")
    assert any(reading_beats(r, declared) for r in play)
    with pytest.raises(RulesError, match="cannot be read as bomb"):
        choose_reading(previous, "bomb")


def test_unknown_declared_kind_is_an_error():
    with pytest.raises(RulesError, match="unknown kind 'rocket'"):
        choose_reading(classify(cards("S5"), "2"), "rocket")
