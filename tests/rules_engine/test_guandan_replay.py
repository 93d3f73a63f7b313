"""Replay of a deal's play log (SPEC 4.2)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import api
from rules_engine.cards import cards_text, parse_cards
from rules_engine.guandan import Play, replay_deal
from rules_engine.guandan.sample import sample_deal

# E -> N -> W -> S. N goes out first with SA, nobody beats it: partner S leads (借风).
HANDS = {"E": "S3 S9", "N": "SA", "W": "S5 S7", "S": "C2 S8"}
LOG = [
    ("E", "S3"),
    ("N", "SA"),
    ("W", ""),
    ("S", ""),
    ("E", ""),
    ("S", "C2"),
    ("E", "S9"),
    ("W", ""),
    ("S", ""),
    ("W", "S5"),
    ("S", "S8"),
]


def hands(texts=HANDS):
    return {seat: parse_cards(text.split(), 2) for seat, text in texts.items()}


def plays(entries):
    return [Play(seat, tuple(parse_cards(text.split(), 2))) for seat, text in entries]


def replay(entries=LOG, texts=HANDS, level="J"):
    return replay_deal(plays(entries), hands(texts), level)


def test_legal_log_derives_the_finishing_order():
    result = replay()
    assert result.legal, result.reason
    assert result.complete
    assert result.finish == ["N", "E", "S", "W"]


def test_partner_leads_when_the_player_who_went_out_is_not_beaten():
    wrong = LOG[:5] + [("W", "S5")]
    result = replay(wrong)
    assert not result.legal
    assert result.index == 5
    assert result.reason == "it is S's turn, not W's"


def test_play_out_of_turn_is_rejected_with_its_index():
    result = replay([("E", "S3"), ("W", "S5")])
    assert not result.legal and result.index == 1 and result.seat == "W"
    assert "it is N's turn" in result.reason


def test_play_of_cards_not_held_is_rejected():
    result = replay([("E", "S4")])
    assert not result.legal and result.reason == "E does not hold S4"


def test_play_that_does_not_beat_the_trick_is_rejected():
    result = replay([("E", "S9"), ("N", "SA"), ("W", "S5")])
    assert not result.legal and result.reason == "S5 does not beat single A"


def test_leader_may_not_pass():
    result = replay([("E", "")])
    assert not result.legal and "E leads and may not pass" in result.reason


def test_invalid_combination_is_rejected():
    result = replay([("E", "S3 S9")])
    assert not result.legal and result.reason == "S3 S9 is not a valid combination"


def test_double_up_ends_the_deal_at_once():
    texts = {"E": "S3 S9", "N": "S4 SK D4", "W": "S5 SA", "S": "S6 C2"}
    entries = [
        ("E", "S3"),
        ("N", "S4"),
        ("W", "S5"),
        ("S", "S6"),
        ("E", "S9"),
        ("N", "SK"),
        ("W", "SA"),
    ]
    result = replay(entries, texts)
    assert result.legal and result.complete
    assert result.finish == ["E", "W"]
    late = replay(entries + [("S", "")], texts)
    assert not late.legal and late.reason == "the deal is already over"


def test_unfinished_log_is_legal_but_not_complete():
    result = replay(LOG[:4])
    assert result.legal and not result.complete
    assert result.finish == ["N"]


def test_wild_cards_in_a_log_may_be_declared():
    texts = {"E": "S5 C5 S6 C6 H7 H7", "N": "S3", "W": "S4", "S": "S2"}
    log = [Play("E", tuple(parse_cards(texts["E"].split(), 2)), "plate")]
    result = replay_deal(log, hands(texts), "7")
    assert result.legal
    assert result.readings[0].kind == "plate"


def test_play_log_through_check_request():
    request = {
        "game": "guandan",
        "level": "J",
        "hands": {seat: text.split() for seat, text in HANDS.items()},
        "play_log": [{"seat": s, "cards": c.split()} for s, c in LOG[:2]]
        + [{"seat": "W", "pass": True}],
    }
    answer = api.check(request)
    assert answer == {
        "legal": True,
        "reason": "every play is legal; the deal is not finished",
        "finish": ["N"],
        "complete": False,
        "plays": 3,
    }


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from(["2", "7", "A"]))
def test_generated_legal_deals_replay_as_legal_and_complete(seed, level):
    dealt, log = sample_deal(seed, level)
    result = replay_deal(log, dealt, level)
    assert result.legal, result.reason
    assert result.complete
    assert len(result.finish) in (2, 4)
    assert len(set(result.finish)) == len(result.finish)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_a_log_whose_first_play_is_made_by_another_seat_is_rejected(seed):
    dealt, log = sample_deal(seed, "2")
    second = log[1]
    forged = [log[0], Play("W" if second.seat != "W" else "S", second.cards)] + log[2:]
    result = replay_deal(forged, dealt, "2")
    assert not result.legal and result.index == 1


def test_json_log_round_trip_of_a_generated_deal():
    dealt, log = sample_deal(3, "9")
    request = {
        "game": "guandan",
        "level": "9",
        "hands": {seat: cards_text(cards) for seat, cards in dealt.items()},
        "play_log": [{"seat": p.seat, "cards": cards_text(p.cards)} for p in log],
    }
    answer = api.check(request)
    assert answer["legal"] and answer["complete"]
    assert answer["finish"] == replay_deal(log, dealt, "9").finish
