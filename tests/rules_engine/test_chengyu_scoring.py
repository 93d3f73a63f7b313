"""Idiom-chain poker deal and match scoring, penalties that change a result (SPEC 4.4, 4.5, 5)."""

import pytest

from rules_engine.api import score
from rules_engine.cards import card_text
from rules_engine.chengyu import Ring, round_lost, transfer_trick
from rules_engine.chengyu.sample import deal_hands, play_deal
from rules_engine.errors import RulesError


def match(*tricks, **record):
    deals = [{"tricks": {"EW": ew, "NS": 13 - ew}} for ew in tricks]
    return score({"game": "chengyu", "preset": "chengyu", "deals": deals} | record)


def test_spec_example_deals_won_then_tricks():
    answer = match(8, 6)  # 1 deal each; tricks 14:12
    assert answer["deals_won"] == {"EW": 1, "NS": 1} and answer["tricks"] == {"EW": 14, "NS": 12}
    assert answer["winner"] == "EW" and answer["match_points"] == {"EW": 2, "NS": 0}


def test_deal_is_won_by_the_side_with_more_tricks():
    assert [t["winner"] for t in match(7, 6, 2)["trace"]] == ["EW", "NS", "NS"]


def test_most_deals_won_decides_before_tricks():
    answer = match(7, 7, 0)  # EW wins 2 deals with 14 tricks against 25
    assert answer["winner"] == "EW" and answer["match_points"] == {"EW": 2, "NS": 0}


def test_level_on_deals_and_tricks_is_a_draw():
    answer = match(7, 6)
    assert answer["winner"] is None and answer["match_points"] == {"EW": 1, "NS": 1}


def test_extra_deal_is_played_only_while_the_match_is_tied():
    # three deals of 13 tricks always decide; with 2 deals a match can be tied
    two = {"settings": {"deals_per_match": 2}}
    answer = match(7, 6, 4, **two)  # 7:6, 6:7 tied on deals and tricks; 4:9 decides
    assert answer["winner"] == "NS" and answer["deals_won"] == {"EW": 1, "NS": 2}
    with pytest.raises(RulesError) as err:
        match(8, 6, 4, **two)
    assert err.value.field == "deals[2]"


def test_a_deal_after_the_match_was_decided_is_an_error():
    with pytest.raises(RulesError) as err:
        match(8, 8, 2, 7)
    assert err.value.field == "deals[3]"


def test_tricks_must_add_up_to_thirteen():
    with pytest.raises(RulesError) as err:
        score({"game": "chengyu", "deals": [{"tricks": {"EW": 8, "NS": 6}}]})
    assert err.value.field == "deals[0].tricks" and "13" in err.value.message


def test_trick_to_opponents_moves_one_trick_of_that_deal():
    assert transfer_trick({"EW": 7, "NS": 6}, "EW") == {"EW": 6, "NS": 7}
    answer = match(7, 7, 7, penalties=[{"type": "trick_to_opponents", "side": "EW", "deal": 2}])
    assert answer["trace"][1]["tricks"] == {"EW": 6, "NS": 7}
    assert answer["deals_won"] == {"EW": 2, "NS": 1}


def test_round_lost_sets_the_deal_to_four_nine_against_the_offender():
    assert round_lost("NS") == {"NS": 4, "EW": 9}
    answer = match(2, 2, 2, penalties=[{"type": "round_lost", "side": "NS", "deal": 1}])
    assert answer["trace"][0]["tricks"] == {"EW": 9, "NS": 4}


def test_round_lost_without_a_deal_loses_the_whole_round():
    answer = match(12, 12, 12, penalties=[{"type": "round_lost", "side": "EW"}])
    assert answer["winner"] == "NS" and answer["tricks"] == {"EW": 12, "NS": 27}


def test_penalty_naming_a_deal_not_played_is_an_error():
    with pytest.raises(RulesError) as err:
        match(7, penalties=[{"type": "trick_to_opponents", "side": "EW", "deal": 2}])
    assert err.value.field == "penalties[0]"


def test_trick_to_opponents_needs_a_trick_to_give():
    with pytest.raises(RulesError):
        match(0, penalties=[{"type": "trick_to_opponents", "side": "EW", "deal": 1}])


def test_forfeit_gives_the_forfeit_points():
    answer = score({"game": "chengyu", "deals": [], "forfeit": "EW"})
    assert answer["winner"] == "NS" and answer["match_points"] == {"EW": 0, "NS": 2}


def test_the_engine_resolves_a_deal_given_trick_by_trick():
    tricks = play_deal(Ring("D"), deal_hands(3))
    deal = {
        "trump": "D",
        "tricks": [
            {"leader": leader, "cards": [card_text(c) for c in cards]} for leader, cards in tricks
        ],
    }
    answer = score({"game": "chengyu", "deals": [deal]})
    entry = answer["trace"][0]
    assert entry["first_illegal"] is None and sum(entry["tricks"].values()) == 13
    assert answer["tricks"] == entry["tricks"]


def test_a_deal_given_trick_by_trick_needs_the_52_cards_once():
    tricks = [{"leader": "E", "cards": ["S3", "S4", "S5", "S6"]}] * 13
    with pytest.raises(RulesError) as err:
        score({"game": "chengyu", "deals": [{"trump": "D", "tricks": tricks}]})
    assert err.value.field == "deals[0].tricks"
