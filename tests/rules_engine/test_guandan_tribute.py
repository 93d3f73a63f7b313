"""Tribute and return (SPEC 4.2, seed 五)."""

from rules_engine.cards import parse_card, parse_cards
from rules_engine.guandan import Transfer, check_tribute

LEVEL = "5"
BASE = {"E": "S9 C9 D3", "S": "S4 C4 D4", "W": "H9 D9 C6", "N": "S6 C7 D8"}


def hands(**changes):
    texts = BASE | changes
    return {seat: parse_cards(text.split(), 2) for seat, text in texts.items()}


def moves(*items):
    return [Transfer(giver, receiver, parse_card(card)) for giver, receiver, card in items]


def ruling(finish, tribute=(), returns=(), **hand_changes):
    return check_tribute(hands(**hand_changes), finish, LEVEL, moves(*tribute), moves(*returns))


SINGLE = ["E", "S", "W", "N"]  # N last pays E
PARTNER_LAST = ["E", "S", "N", "W"]  # W last, E's partner, pays E
DOUBLE = ["E", "W"]  # S and N both pay


def test_last_place_gives_the_highest_card_to_first_place_who_returns_one():
    result = ruling(SINGLE, [("N", "E", "BJ")], [("E", "N", "D3")], N="BJ SA C3")
    assert result.legal, result.reason
    assert result.payers == ["N"]
    assert result.leader == "N"


def test_tribute_that_is_not_the_highest_card_is_illegal():
    result = ruling(SINGLE, [("N", "E", "SA")], [("E", "N", "D3")], N="BJ SA C3")
    assert not result.legal
    assert "must pay the highest card, not SA" in result.reason


def test_the_heart_level_card_is_never_the_tribute():
    result = ruling(SINGLE, [("N", "E", "SA")], [("E", "N", "D3")], N="H5 SA C3")
    assert result.legal, result.reason
    paid_wild = ruling(SINGLE, [("N", "E", "H5")], [("E", "N", "D3")], N="H5 SA C3")
    assert not paid_wild.legal and "heart level card" in paid_wild.reason


def test_other_level_cards_rank_above_a_for_tribute():
    result = ruling(SINGLE, [("N", "E", "SA")], [("E", "N", "D3")], N="S5 SA C3")
    assert not result.legal
    assert ruling(SINGLE, [("N", "E", "S5")], [("E", "N", "D3")], N="S5 SA C3").legal


def test_equal_highest_cards_of_other_suits_may_be_paid():
    assert ruling(SINGLE, [("N", "E", "CA")], [("E", "N", "D3")], N="SA CA C3").legal


def test_return_to_a_partner_must_rank_below_the_level_card():
    ok = ruling(PARTNER_LAST, [("W", "E", "LJ")], [("E", "W", "S9")], W="LJ C6")
    assert ok.legal, ok.reason
    level_card = ruling(PARTNER_LAST, [("W", "E", "LJ")], [("E", "W", "S5")], W="LJ C6", E="S5 C9")
    assert not level_card.legal and "below the level card" in level_card.reason
    joker = ruling(PARTNER_LAST, [("W", "E", "LJ")], [("E", "W", "LJ")], W="LJ C6")
    assert not joker.legal


def test_return_to_an_opponent_may_be_any_card():
    result = ruling(SINGLE, [("N", "E", "SA")], [("E", "N", "BJ")], N="SA C3", E="BJ D3")
    assert result.legal, result.reason


def test_returned_card_must_be_held_but_may_be_the_tribute_itself():
    missing = ruling(SINGLE, [("N", "E", "SA")], [("E", "N", "HK")], N="SA C3")
    assert not missing.legal and "does not hold HK" in missing.reason
    assert ruling(SINGLE, [("N", "E", "SA")], [("E", "N", "SA")], N="SA C3").legal


def test_double_tribute_when_one_side_finishes_last_two_first_takes_the_bigger_card():
    result = ruling(
        DOUBLE,
        [("S", "E", "BJ"), ("N", "W", "SA")],
        [("E", "S", "D3"), ("W", "N", "C6")],
        S="BJ C4",
        N="SA C7",
    )
    assert result.legal, result.reason
    assert sorted(result.payers) == ["N", "S"]
    assert result.leader == "S"  # the payer of the bigger card leads


def test_double_tribute_to_the_wrong_receiver_is_illegal():
    result = ruling(
        DOUBLE,
        [("S", "W", "BJ"), ("N", "E", "SA")],
        [("W", "S", "C6"), ("E", "N", "D3")],
        S="BJ C4",
        N="SA C7",
    )
    assert not result.legal and "S's tribute goes to E" in result.reason


def test_double_tribute_with_equal_cards_goes_counter_clockwise():
    # play order E -> N -> W -> S: S pays E, N pays W; the seat before E (S) leads.
    result = ruling(
        DOUBLE,
        [("S", "E", "SA"), ("N", "W", "HA")],
        [("E", "S", "D3"), ("W", "N", "C6")],
        S="SA C4",
        N="HA C7",
    )
    assert result.legal, result.reason
    assert result.leader == "S"


def test_no_tribute_when_the_last_player_holds_both_big_jokers():
    result = ruling(SINGLE, N="BJ BJ C3")
    assert result.legal and result.resisted
    assert result.leader == "E"


def test_no_double_tribute_when_the_paying_side_holds_both_big_jokers_between_them():
    result = ruling(DOUBLE, S="BJ C4", N="BJ C7")
    assert result.legal and result.resisted


def test_declaring_a_tribute_when_none_is_due_is_illegal():
    result = ruling(SINGLE, [("N", "E", "BJ")], [("E", "N", "D3")], N="BJ BJ C3")
    assert not result.legal and "抗贡" in result.reason


def test_missing_tribute_or_return_is_illegal():
    assert "tribute is due from N" in ruling(SINGLE, [], [], N="SA C3").reason
    no_return = ruling(SINGLE, [("N", "E", "SA")], [], N="SA C3")
    assert not no_return.legal and "returned by E" in no_return.reason


# --- national rules as preset settings (SPEC 4.2, 5) ---

from rules_engine import api  # noqa: E402
from rules_engine.guandan.tribute import TributeRules  # noqa: E402
from rules_engine.presets import get_preset  # noqa: E402

NATIONAL = TributeRules.of(get_preset("guandan-national-2017"))


def national(finish, tribute=(), returns=(), **hand_changes):
    return check_tribute(
        hands(**hand_changes), finish, LEVEL, moves(*tribute), moves(*returns), NATIONAL
    )


def test_return_to_partner_limit_national_allows_10_or_lower():
    # W (E's partner) finished last and pays E; E returns to its partner
    assert national(PARTNER_LAST, [("W", "E", "H9")], [("E", "W", "D3")]).legal
    ten = national(PARTNER_LAST, [("W", "E", "H9")], [("E", "W", "ST")], E="S9 ST D3")
    assert ten.legal, ten.reason


def test_return_to_partner_limit_national_refuses_above_10():
    # a J is below the level card (Suzhou allows it) but above 10 (national refuses it)
    result = national(PARTNER_LAST, [("W", "E", "H9")], [("E", "W", "SJ")], E="S9 SJ D3")
    assert not result.legal and "10 or lower" in result.reason
    assert ruling(PARTNER_LAST, [("W", "E", "H9")], [("E", "W", "SJ")], E="S9 SJ D3").legal


def test_return_to_partner_limit_suzhou_refuses_the_level_card():
    result = ruling(PARTNER_LAST, [("W", "E", "H9")], [("E", "W", "S5")], E="S9 S5 D3")
    assert not result.legal and "below the level card" in result.reason


def test_equal_double_tribute_direction_national_goes_clockwise_and_the_right_opponent_leads():
    # clockwise: each payer to the seat before it in the order of play (S pays W, N pays E);
    # the first-out player's 下家 (N, the next seat after E) leads
    result = national(
        DOUBLE,
        [("S", "W", "SA"), ("N", "E", "HA")],
        [("W", "S", "C6"), ("E", "N", "D3")],
        S="SA C4",
        N="HA C7",
    )
    assert result.legal, result.reason
    assert result.leader == "N"


def test_equal_double_tribute_direction_national_refuses_the_suzhou_direction():
    result = national(
        DOUBLE,
        [("S", "E", "SA"), ("N", "W", "HA")],
        [("E", "S", "D3"), ("W", "N", "C6")],
        S="SA C4",
        N="HA C7",
    )
    assert not result.legal and "S's tribute goes to W" in result.reason


def test_tribute_settings_reach_check_through_the_request_preset_and_settings():
    request = {
        "game": "guandan",
        "level": "5",
        "finish": PARTNER_LAST,
        "hands": {
            "E": ["S9", "SJ", "D3"],
            "S": ["S4", "C4", "D4"],
            "W": ["H9", "D9", "C6"],
            "N": ["S6", "C7", "D8"],
        },
        "tribute": [{"from": "W", "to": "E", "card": "H9"}],
        "return": [{"from": "E", "to": "W", "card": "SJ"}],
    }
    assert api.check(request)["legal"] is True
    assert api.check(request | {"preset": "guandan-national-2017"})["legal"] is False
    suzhou_with_limit = request | {"settings": {"partner_return_limit": "10"}}
    assert api.check(suzhou_with_limit)["legal"] is False
