"""Tractor throws (甩牌) and trump declaration (亮主) (SPEC 4.3, seed 三.1, 三.3)."""

import pytest

from rules_engine.api import check
from rules_engine.errors import RulesError
from rules_engine.tractor import check_declarations, check_throw
from tests.rules_engine.tractor_helpers import SPADES_FIVE, cards


def throw(thrown: str, *others: str) -> dict:
    return check_throw(SPADES_FIVE, cards(*thrown.split()), [cards(*o.split()) for o in others])


def test_throw_of_absolute_biggest_cards_succeeds():
    answer = throw("CA CA CK", "CK C2", "H3", "CQ")
    assert answer["legal"] and answer["penalty_points"] == 0 and answer["forced_play"] == []


def test_throw_fails_when_another_player_holds_a_strictly_bigger_card():
    answer = throw("CA CK", "CA C3", "H2", "D2")
    assert not answer["legal"]
    assert answer["failing_cards"] == ["CK"]


def test_an_equal_card_does_not_make_a_throw_fail():
    assert throw("CA CA CK", "CK", "H2", "D2")["legal"]
    # other suits' level cards are equal trumps
    assert throw("H5 H5", "C5", "D5", "S2")["legal"]


def test_throw_penalty_is_ten_points_per_failing_card():
    assert throw("CA CQ CJ", "CK", "", "")["penalty_points"] == 20


def test_failing_pair_counts_as_two_cards():
    answer = throw("CA CQ CQ", "CK", "", "")
    assert answer["penalty_points"] == 20 and answer["failing_cards"] == ["CQ", "CQ"]


def test_failed_throw_forces_the_smallest_card_alone():
    assert throw("CA CQ CQ CJ CJ CJ", "CK", "", "")["forced_play"] == ["CJ"]


def test_trump_throw_is_checked_against_other_hands_trumps():
    assert not throw("S5 SA", "BJ", "", "")["legal"]
    assert throw("BJ BJ LJ", "LJ", "S5", "")["legal"]


def test_throw_check_through_the_json_contract():
    answer = check(
        {
            "game": "tractor",
            "trump": "S",
            "level": "5",
            "throw": ["CA", "CK"],
            "others": [["CA"], ["D2"], ["H3"]],
        }
    )
    assert answer == {
        "legal": False,
        "reason": answer["reason"],
        "penalty_points": 10,
        "forced_play": ["CK"],
        "failing_cards": ["CK"],
    }


def test_throw_copies_are_counted_across_the_request():
    with pytest.raises(RulesError):
        check(
            {
                "game": "tractor",
                "trump": "S",
                "level": "5",
                "throw": ["CA", "CA"],
                "others": [["CA", "CA"], [], []],
            }
        )


def test_throw_mixing_suits_is_an_error():
    with pytest.raises(RulesError) as err:
        throw("CA HA", "", "", "")
    assert err.value.field == "throw"


def declare(*entries):
    return check_declarations(
        "5", [{"seat": seat, "cards": cards_.split()} for seat, cards_ in entries]
    )


def test_more_cards_override_fewer():
    answer = declare(("E", "S5"), ("N", "H5 H5"))
    assert answer["legal"] and answer["trump"] == "H" and answer["declarer"] == "N"


def test_equal_number_of_cards_cannot_override():
    assert not declare(("E", "S5 S5"), ("N", "H5 H5"))["legal"]


def test_first_declarer_overridden_cannot_come_back_with_as_many():
    # seed: a single overridden by a pair needs three to come back
    assert not declare(("E", "S5"), ("N", "H5 H5"), ("E", "S5 S5"))["legal"]
    assert declare(("E", "S5"), ("N", "H5 H5"), ("E", "S5 S5 S5"))["legal"]


def test_no_self_override_even_with_more_cards():
    answer = declare(("E", "S5"), ("E", "H5 H5"))
    assert not answer["legal"] and "self-override" in answer["reason"]
    assert not declare(("E", "S5"), ("W", "H5 H5"))["legal"]  # the partner neither


def test_reinforcing_ones_own_declaration_is_allowed():
    answer = declare(("E", "S5"), ("N", "H5 H5"), ("N", "H5 H5 H5"))
    assert answer["legal"] and answer["trump"] == "H"


def test_declaration_shows_level_cards_of_one_suit():
    with pytest.raises(RulesError):
        declare(("E", "S6"))
    with pytest.raises(RulesError):
        declare(("E", "S5 H5"))


def test_declaration_check_through_the_json_contract():
    answer = check(
        {"game": "tractor", "level": "5", "declarations": [{"seat": "E", "cards": ["S5"]}]}
    )
    assert answer["legal"] and answer["trump"] == "S"


def test_lead_check_accepts_one_form_and_sends_throws_to_the_throw_check():
    lead = {"game": "tractor", "trump": "S", "level": "5", "hand": ["C9", "C9", "CT", "CT", "CA"]}
    assert check(lead | {"play": ["C9", "C9", "CT", "CT"]})["form"] == "tractor"
    answer = check(lead | {"play": ["C9", "C9", "CA"]})
    assert not answer["legal"] and answer["form"] == "throw"
