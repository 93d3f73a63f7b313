"""Idiom-chain poker: the ring, 必出, discards, kills, tricks, deal replay (SPEC 4.4)."""

import pytest

from rules_engine.api import check
from rules_engine.cards import parse_card, parse_cards
from rules_engine.chengyu import Ring, check_play, replay_deal, resolve_trick
from rules_engine.chengyu.sample import deal_hands, play_deal
from rules_engine.errors import RulesError

HEARTS = Ring("H")


def c(text):
    return parse_card(text)


def rule(hand, trick, play, trump="H"):
    return check(
        {
            "game": "chengyu",
            "trump": trump,
            "hand": hand.split(),
            "trick": trick.split(),
            "play": play,
        }
    )


def test_adjacent_ranks_of_a_suit_chain_and_ace_is_next_to_two():
    assert HEARTS.chains(c("S7"), c("S8")) and HEARTS.chains(c("S7"), c("S6"))
    assert HEARTS.chains(c("SA"), c("S2")) and HEARTS.chains(c("S2"), c("SA"))
    assert not HEARTS.chains(c("S7"), c("S9")) and not HEARTS.chains(c("S7"), c("D8"))


def test_king_does_not_chain_to_the_ace_of_its_own_suit():
    assert not HEARTS.chains(c("SK"), c("SA"))


def test_king_chains_to_the_ace_of_the_next_suit_and_back():
    # seed: ♦K -> ♣A; default ring ♦→♣→♥→♠→♦
    assert Ring("S").chains(c("DK"), c("CA")) and Ring("S").chains(c("CA"), c("DK"))
    assert Ring("D").chains(c("SK"), c("DA")) is False  # diamonds trump
    assert Ring("C").chains(c("SK"), c("DA"))  # the ring closes: ♠K -> ♦A
    assert not Ring("S").chains(c("DK"), c("HA"))


def test_king_ace_link_never_applies_to_trump():
    assert not Ring("C").chains(c("DK"), c("CA"))
    assert not Ring("D").chains(c("DK"), c("CA"))


def test_suit_ring_is_configurable():
    ring = Ring("S", ("D", "H", "C", "S"))
    assert ring.chains(c("DK"), c("HA")) and not ring.chains(c("DK"), c("CA"))
    answer = check(
        {
            "game": "chengyu",
            "trump": "S",
            "hand": ["HA", "C2"],
            "trick": ["DK"],
            "play": "C2",
            "suit_ring": ["D", "H", "C", "S"],
        }
    )
    assert not answer["legal"]


def test_holding_a_chaining_card_it_must_be_played_bichu():
    # seed: the head is ♥3, the next player holding ♥4 or ♥2 must play it
    answer = rule("H4 H9 C5", "H3", "H9", trump="S")
    assert not answer["legal"] and "必出" in answer["reason"]
    assert rule("H4 H9 C5", "H3", "H4", trump="S")["kind"] == "chain"


def test_holding_the_heads_suit_without_chain_must_discard_that_suit():
    assert not rule("H9 C5", "H3", "C5", trump="S")["legal"]
    answer = rule("H9 C5", "H3", "H9", trump="S")
    assert answer["legal"] and answer["kind"] == "discard"


def test_void_in_the_heads_suit_may_kill_or_discard():
    assert rule("S9 C5", "H3", "S9", trump="S")["kind"] == "kill"
    answer = rule("S9 C5", "H3", "C5", trump="S")
    assert answer["legal"] and answer["kind"] == "discard"


def test_void_without_trump_may_only_discard():
    assert rule("C9 C5", "H3", "C5", trump="S")["kind"] == "discard"


def test_seed_spade7_kill_then_only_spade8_or_spade6_chain():
    # spades trump; ♠7 助人为乐 kills the ♥3 lead; the next player must chain ♠8 or ♠6
    assert rule("S8 H4 D2", "H3 S7", "S8", trump="S")["kind"] == "chain"
    assert rule("S6 H4 D2", "H3 S7", "S6", trump="S")["legal"]
    assert not rule("S8 H4 D2", "H3 S7", "H4", trump="S")["legal"]
    # without ♠8 or ♠6 only a discard is left (of trump while holding trump)
    assert not rule("S2 H4 D2", "H3 S7", "H4", trump="S")["legal"]
    assert rule("S2 H4 D2", "H3 S7", "S2", trump="S")["kind"] == "discard"
    assert rule("H4 D2", "H3 S7", "H4", trump="S")["kind"] == "discard"


def test_king_head_may_be_answered_by_the_queen_or_the_next_suits_ace():
    # seed: the head is ♦K, the next player holds ♦Q and ♣A: either chains
    assert rule("DQ CA H2", "DK", "DQ", trump="S")["legal"]
    assert rule("DQ CA H2", "DK", "CA", trump="S")["kind"] == "chain"
    assert not rule("D5 CA H2", "DK", "D5", trump="S")["legal"]  # must chain ♣A


def test_next_suits_ace_chained_becomes_the_head():
    trick = resolve_trick(Ring("S"), "E", [c("DK"), c("CA"), c("C2"), c("DQ")])
    assert trick.kinds == ["lead", "chain", "chain", "discard"] and trick.winner == "W"


def test_king_head_without_its_suit_may_discard_or_kill():
    assert rule("S4 H2", "DK", "S4", trump="S")["kind"] == "kill"
    assert rule("S4 H2", "DK", "H2", trump="S")["legal"]


def test_last_player_to_chain_or_kill_wins_the_trick():
    trick = resolve_trick(HEARTS, "E", [c("S7"), c("S8"), c("H2"), c("D4")])
    assert trick.winner == "W"  # E leads, N chains, W kills, S discards


def test_when_nobody_chains_the_leader_wins():
    assert resolve_trick(HEARTS, "N", [c("S7"), c("S2"), c("D4"), c("C9")]).winner == "N"


def test_discards_never_win():
    trick = resolve_trick(HEARTS, "E", [c("S7"), c("S8"), c("SK"), c("D9")])
    assert trick.kinds[2:] == ["discard", "discard"] and trick.winner == "N"


def test_play_goes_counter_clockwise_east_north_west_south():
    trick = resolve_trick(HEARTS, "W", [c("S7"), c("S2"), c("S8"), c("D9")])
    assert trick.winner == "E"  # W leads, S discards, E chains, N discards


def test_after_a_kill_only_trumps_chain():
    trick = resolve_trick(HEARTS, "E", [c("S7"), c("H5"), c("S8"), c("H6")])
    assert trick.kinds == ["lead", "kill", "discard", "chain"] and trick.winner == "S"


def test_any_card_may_lead():
    assert check_play(HEARTS, [c("S7"), c("H2")], [], c("H2"))["kind"] == "lead"


def test_a_card_not_in_the_hand_is_an_error():
    with pytest.raises(RulesError) as err:
        rule("S8 H4", "S7", "S6")
    assert err.value.field == "play"


def test_one_deck_has_each_card_once():
    with pytest.raises(RulesError):
        rule("S7 H4", "S7", "H4")


def test_trump_must_be_a_suit():
    with pytest.raises(RulesError) as err:
        rule("S8", "S7", "S8", trump="X")
    assert err.value.field == "trump"


def test_replay_reports_no_illegal_play_in_a_legal_deal():
    ring = Ring("H")
    replay = replay_deal(ring, play_deal(ring, deal_hands(7)))
    assert replay.first_illegal is None and sum(replay.tricks.values()) == 13


def test_replay_reports_the_first_missed_bichu():
    # N discards ♠2 on ♠7 while holding ♠6, which N plays in the next trick
    tricks = [
        ("E", parse_cards(["D9", "D2", "D4", "D5"], 1)),
        ("E", parse_cards(["S7", "S2", "C8", "D3"], 1)),
        ("E", parse_cards(["S3", "S6", "C3", "DJ"], 1)),
    ]
    replay = replay_deal(HEARTS, tricks)
    illegal = replay.first_illegal
    assert illegal["trick"] == 2 and illegal["seat"] == "N" and illegal["card"] == "S2"
    assert "S6" in illegal["reason"] and "必出" in illegal["reason"]
    assert replay.winners == ["E", "E", "E"]  # the tricks are still resolved as played


def test_first_trick_is_led_by_the_holder_of_spade_three():
    tricks = [("N", parse_cards(["D9", "S3", "D8", "DT"], 1))]
    illegal = replay_deal(HEARTS, tricks).first_illegal
    assert illegal["trick"] == 1 and "♠3" in illegal["reason"]


def test_the_winner_of_a_trick_leads_the_next():
    tricks = [
        ("E", parse_cards(["S3", "S4", "D8", "DT"], 1)),
        ("E", parse_cards(["C2", "C3", "C9", "D5"], 1)),
    ]
    illegal = replay_deal(HEARTS, tricks).first_illegal
    assert illegal["trick"] == 2 and illegal["reason"].startswith("N leads")
