import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_engine.cards import (
    DECK,
    PASSED_A,
    Card,
    card_text,
    count_copies,
    level_text,
    parse_card,
    parse_cards,
    parse_level,
    rank_index,
    rank_text,
)
from rules_engine.errors import RulesError


@pytest.mark.parametrize(
    "text, suit, rank",
    [
        ("S7", "S", "7"),
        ("S10", "S", "T"),
        ("ST", "S", "T"),
        ("s10", "S", "T"),
        ("hq", "H", "Q"),
        ("♠7", "S", "7"),
        ("♥A", "H", "A"),
        ("♣10", "C", "T"),
        ("♦2", "D", "2"),
        ("黑桃7", "S", "7"),
        ("红桃K", "H", "K"),
        ("红心J", "H", "J"),
        ("梅花3", "C", "3"),
        ("方块4", "D", "4"),
        ("方片5", "D", "5"),
        ("LJ", None, "LJ"),
        ("bj", None, "BJ"),
        ("小王", None, "LJ"),
        ("大王", None, "BJ"),
    ],
)
def test_parse_card_accepts_spec_notation_chinese_names_and_suit_symbols(text, suit, rank):
    assert parse_card(text) == Card(suit, rank)


@pytest.mark.parametrize("text", ["", "X7", "S1", "S11", "7", "SJJ", "王", "S 7 7"])
def test_unknown_card_is_a_clear_error_naming_the_card(text):
    with pytest.raises(RulesError) as err:
        parse_card(text, "play[0]")
    assert "unknown card" in err.value.message
    assert err.value.field == "play[0]"


def test_a_card_that_is_not_text_is_an_error():
    with pytest.raises(RulesError, match="written as text"):
        parse_card(7)


def test_card_text_writes_10_for_ten_and_jokers_by_name():
    assert card_text(parse_card("ST")) == "S10"
    assert card_text(parse_card("大王")) == "BJ"
    assert card_text(parse_card("♥A")) == "HA"
    assert str(parse_card("小王")) == "LJ"


def test_cards_are_hashable_and_equal_by_value():
    assert parse_card("S10") == parse_card("♠10")
    assert len({parse_card("S10"), parse_card("ST")}) == 1


def test_two_decks_hold_two_copies_of_a_card():
    assert len(parse_cards(["S7", "♠7", "LJ", "小王"], 2)) == 4


def test_more_copies_than_the_decks_hold_is_an_error():
    with pytest.raises(RulesError, match="S7 appears 3 times, more copies than 2 decks hold"):
        parse_cards(["S7", "S7", "黑桃7"], 2, "play")


def test_one_deck_holds_one_copy_of_each_card():
    with pytest.raises(RulesError, match="one deck holds"):
        parse_cards(["BJ", "大王"], 1)


def test_three_decks_hold_three_copies():
    assert len(parse_cards(["CA"] * 3, 3)) == 3
    with pytest.raises(RulesError):
        parse_cards(["CA"] * 4, 3)


def test_copies_are_counted_across_all_lists_of_a_request():
    previous, play = parse_cards(["S5", "S5"], 2), parse_cards(["S5"], 2)
    with pytest.raises(RulesError, match="S5 appears 3 times"):
        count_copies([previous, play], 2, "previous and play")


def test_unknown_card_in_a_list_names_its_position():
    with pytest.raises(RulesError) as err:
        parse_cards(["S7", "Z9"], 2, "previous")
    assert err.value.field == "previous[1]"


def test_parse_cards_wants_a_list_not_a_string():
    with pytest.raises(RulesError, match="must be a list"):
        parse_cards("S7 S8", 2)


def test_rank_index_counts_2_as_0_and_a_as_12():
    assert [rank_index(r) for r in ("2", "T", "10", "A", "LJ", "BJ")] == [0, 8, 8, 12, 13, 14]
    assert rank_text("T") == "10"


def test_levels_are_written_2_to_10_j_q_k_a_and_passed_a_shows_a():
    assert [level_text(i) for i in (0, 8, 9, 12, PASSED_A)] == ["2", "10", "J", "A", "A"]
    assert parse_level("10") == parse_level("T") == parse_level(10) == 8
    assert parse_level("a") == 12


@pytest.mark.parametrize("bad", ["1", "LJ", "", None, True, "11"])
def test_unknown_level_is_a_clear_error(bad):
    with pytest.raises(RulesError, match="level 2..10, J, Q, K or A"):
        parse_level(bad)


@given(st.lists(st.sampled_from(DECK), max_size=60), st.integers(min_value=1, max_value=3))
def test_no_set_with_more_copies_than_the_decks_is_accepted(cards, decks):
    texts = [card_text(card) for card in cards]
    too_many = any(cards.count(card) > decks for card in cards)
    if too_many:
        with pytest.raises(RulesError, match="more copies than"):
            parse_cards(texts, decks)
    else:
        assert parse_cards(texts, decks) == cards
