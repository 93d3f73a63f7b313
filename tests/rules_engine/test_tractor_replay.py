"""Replaying a tractor deal from its play log with ``check`` (SPEC 4.3, 4.5)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules_engine import api
from rules_engine.errors import RulesError

from .tractor_deal import REFEREE_DEAL, TRICKS, hands, play_log, request, whole_decks

ROOT = Path(__file__).resolve().parents[2]


def cli(action, obj):
    done = subprocess.run(
        [sys.executable, "-m", "rules_engine", action, "-"],
        input=json.dumps(obj),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


def small(hands_text: dict, log: list[tuple[str, str]], **changes) -> dict:
    return {
        "game": "tractor",
        "trump": "S",
        "level": "5",
        "dealer": "EW",
        "hands": {s: c.split() for s, c in hands_text.items()},
        "play_log": [{"seat": s, "cards": c.split()} for s, c in log],
    } | changes


def test_the_fixture_is_a_whole_three_deck_deal_of_25_tricks():
    decks = whole_decks()
    assert len(TRICKS) == 25 and sum(decks.values()) == 162 and set(decks.values()) == {3}
    assert {len(cards) for cards in hands().values()} == {39}


def test_cli_replay_of_a_full_deal_gives_the_deal_record_the_referee_types():
    code, out, err = cli("check", request())
    answer = json.loads(out)
    assert code == 0, err
    assert answer["legal"] is True and answer["complete"] is True and answer["plays"] == 100
    assert answer["deal"] == REFEREE_DEAL
    assert [trick["winner"] for trick in answer["tricks"]] == [winner for _, winner in TRICKS]
    assert answer["tricks"][0] == {"leader": "E", "winner": "E", "points": 30}
    assert answer["defender_points"] == 130 and answer["bottom_multiplier"] == 2
    # the record goes into score as it is and scores as the typed one does
    record = {"game": "tractor", "preset": "tractor", "deals": [answer["deal"]]}
    typed = {"game": "tractor", "preset": "tractor", "deals": [REFEREE_DEAL]}
    assert json.loads(cli("score", record)[1]) == json.loads(cli("score", typed)[1])
    assert api.score(record)["trace"][0]["total_points"] == 170


def test_cli_replay_names_an_illegal_follow_in_trick_7_by_index_and_seat():
    log = play_log()
    # trick 7 (entries 24..27, W leads CA CA CA): S holds CK CK CK but breaks the triple
    assert log[25] == {"seat": "S", "cards": ["CK", "CK", "CK"]}
    log[25] = {"seat": "S", "cards": ["CK", "CK", "C2"]}
    code, out, _ = cli("check", request(play_log=log))
    answer = json.loads(out)
    assert code == 0 and answer["legal"] is False
    assert answer["index"] == 25 and answer["seat"] == "S"
    assert "trick 7" in answer["reason"] and "triple" in answer["reason"]
    assert len(answer["tricks"]) == 6 and answer["deal"] is None


def test_cli_replay_applies_a_failed_throw_penalty_and_its_forced_card():
    # E (dealer side) throws HK HK HQ; N holds HA, so all three cards fail: 30 points to the
    # defenders and E plays HQ alone; the rest of the throw stays in E's hand.
    deal = small(
        {"E": "HK HK HQ", "N": "HA H2 D3", "W": "H3 H4 D4", "S": "H6 H7 D6"},
        [
            ("E", "HK HK HQ"),
            ("N", "HA"),
            ("W", "H3"),
            ("S", "H6"),
            ("N", "D3"),
            ("W", "D4"),
            ("S", "D6"),
            ("E", "HK"),
            ("S", "H7"),
            ("E", "HK"),
            ("N", "H2"),
            ("W", "H4"),
        ],
    )
    code, out, _ = cli("check", deal)
    answer = json.loads(out)
    assert code == 0 and answer["legal"] is True and answer["complete"] is True
    [failed] = answer["failed_throws"]
    assert failed["index"] == 0 and failed["seat"] == "E" and failed["cards"] == 3
    assert failed["penalty_points"] == 30 and failed["forced_play"] == ["HQ"]
    assert answer["deal"] == {
        "dealer": "EW",
        "defender_points": 10,
        "failed_throws": [{"side": "EW", "cards": 3}],
    }
    scored = api.score({"game": "tractor", "deals": [answer["deal"]]})
    assert scored["trace"][0]["total_points"] == 40


def test_replay_a_follower_may_not_play_the_thrown_cards_of_the_forced_lead():
    # after the failed throw the trick is the forced HQ: N must follow with one card
    deal = small(
        {"E": "HK HK HQ", "N": "HA H2 D3", "W": "H3 H4 D4", "S": "H6 H7 D6"},
        [("E", "HK HK HQ"), ("N", "HA H2")],
    )
    answer = api.check(deal)
    assert answer["legal"] is False and answer["index"] == 1 and answer["seat"] == "N"


def test_replay_a_kill_wins_the_trick_and_the_bottom_multiplies_by_the_pair():
    deal = small(
        {"E": "CA CA", "N": "S2 S2", "W": "C3 C4", "S": "D2 D3"},
        [("E", "CA CA"), ("N", "S2 S2"), ("W", "C3 C4"), ("S", "D2 D3")],
        bottom=["CK", "D5"],
    )
    answer = api.check(deal)
    assert answer["tricks"] == [{"leader": "E", "winner": "N", "points": 0}]
    assert answer["deal"] == {
        "dealer": "EW",
        "defender_points": 0,
        "bottom_points": 15,
        "bottom_multiplier": 4,
    }


def test_replay_out_of_turn_and_cards_not_held_are_named():
    base = {"E": "CA CA", "N": "S2 S2", "W": "C3 C4", "S": "D2 D3"}
    answer = api.check(small(base, [("E", "CA CA"), ("W", "C3 C4")]))
    assert answer["index"] == 1 and answer["seat"] == "W" and "N's turn" in answer["reason"]
    answer = api.check(small(base, [("E", "CA CA"), ("N", "S3 S3")]))
    assert answer["index"] == 1 and "does not hold" in answer["reason"]
    answer = api.check(small(base, [("N", "S2 S2")]))
    assert answer["index"] == 0 and "dealer side EW" in answer["reason"]


def test_replay_refuses_unequal_hands_and_too_many_copies():
    with pytest.raises(RulesError) as err:
        api.check(small({"E": "CA", "N": "S2 S2", "W": "C3", "S": "D2"}, []))
    assert err.value.field == "hands"
    with pytest.raises(RulesError):
        api.check(small({"E": "CA CA", "N": "CA CA", "W": "C3 C4", "S": "D2 D3"}, []))


# --- kill reading of a throw (SPEC 4.3): strict by default, flexible as a preset setting ---

THROW_KILL = (
    {"E": "CA CA CK", "N": "S2 S2 S2", "W": "C3 C3 C4", "S": "D2 D3 D4"},
    [("E", "CA CA CK"), ("N", "S2 S2 S2"), ("W", "C3 C3 C4"), ("S", "D2 D3 D4")],
)


def test_kill_reading_strict_a_trump_triple_does_not_kill_a_pair_and_single_throw():
    answer = api.check(small(*THROW_KILL))
    assert answer["tricks"][0]["winner"] == "E"


def test_kill_reading_flexible_a_trump_triple_kills_a_pair_and_single_throw():
    answer = api.check(small(*THROW_KILL, settings={"tractor_kill_reading": "flexible"}))
    assert answer["tricks"][0]["winner"] == "N"


def test_kill_reading_flexible_does_not_change_a_normal_lead():
    # a trump pair is needed for a pair: two trump singles never kill, in either reading
    deal = small(
        {"E": "CA CA", "N": "S2 S3", "W": "C3 C4", "S": "D2 D3"},
        [("E", "CA CA"), ("N", "S2 S3"), ("W", "C3 C4"), ("S", "D2 D3")],
        settings={"tractor_kill_reading": "flexible"},
    )
    assert api.check(deal)["tricks"][0]["winner"] == "E"


def test_kill_reading_setting_is_validated():
    with pytest.raises(RulesError) as err:
        api.check(small(*THROW_KILL, settings={"tractor_kill_reading": "loose"}))
    assert "tractor_kill_reading" in err.value.field


# --- one trick's winner from the CLI ---


def test_cli_names_a_tricks_winner_and_its_points():
    trick = {
        "game": "tractor",
        "trump": "S",
        "level": "5",
        "trick": [
            {"seat": "E", "cards": ["CK", "CK"]},
            {"seat": "N", "cards": ["S2", "S2"]},
            {"seat": "W", "cards": ["SA", "S3"]},
            {"seat": "S", "cards": ["C3", "C3"]},
        ],
    }
    code, out, _ = cli("check", trick)
    answer = json.loads(out)
    assert code == 0
    assert answer["winner"] == "N" and answer["kill"] is True and answer["points"] == 20


def test_trick_winner_refuses_plays_out_of_order():
    trick = {
        "game": "tractor",
        "trump": "S",
        "level": "5",
        "trick": [{"seat": "E", "cards": ["CK"]}, {"seat": "W", "cards": ["C2"]}],
    }
    with pytest.raises(RulesError) as err:
        api.check(trick)
    assert err.value.field == "trick[1]"


# --- property: a deal played with listed plays replays legal, and its points add up ---

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from rules_engine.cards import DECK, cards_text  # noqa: E402
from rules_engine.tractor import Ordering  # noqa: E402
from rules_engine.tractor.legal import legal_follows  # noqa: E402
from rules_engine.tractor.replay import card_points  # noqa: E402
from rules_engine.tractor.trick import trick_winner  # noqa: E402

ORDER = ["E", "N", "W", "S"]


@st.composite
def played_deal(draw):
    size = draw(st.integers(1, 6))
    pool = [c for c in DECK if c.rank in "5TK2A" or c.suit is None] * 3
    picks = draw(st.permutations(range(len(pool))))[: 4 * size]
    hands = {
        seat: [pool[i] for i in picks[n * size : (n + 1) * size]] for n, seat in enumerate(ORDER)
    }
    ordering = Ordering("S", "5")
    held = {seat: list(cards) for seat, cards in hands.items()}
    log, leader = [], "E"
    while held["E"]:
        lead = [draw(st.sampled_from(held[leader]))]
        if draw(st.booleans()) and held[leader].count(lead[0]) >= 2 and len(held["E"]) >= 2:
            lead = [lead[0], lead[0]]  # a pair (every hand still holds two cards)
        plays = [(leader, lead)]
        seat = leader
        for _ in range(3):
            seat = ORDER[(ORDER.index(seat) + 1) % 4]
            options, _total = legal_follows(ordering, held[seat], lead)
            options = list(options)
            choice = draw(st.sampled_from(options))
            plays.append((seat, _pick(held[seat], choice["cards"])))
        for who, cards in plays:
            for card in cards:
                held[who].remove(card)
            log.append({"seat": who, "cards": cards_text(cards)})
        leader = plays[trick_winner(ordering, [c for _, c in plays])][0]
    return hands, log


def _pick(hand, codes):
    left, chosen = list(hand), []
    for code in codes:
        card = next(c for c in left if cards_text([c])[0] == code)
        left.remove(card)
        chosen.append(card)
    return chosen


@given(played_deal())
@settings(max_examples=60, deadline=None)
def test_a_deal_of_listed_plays_replays_legal_and_its_points_add_up(deal):
    hands, log = deal
    request = {
        "game": "tractor",
        "trump": "S",
        "level": "5",
        "dealer": "EW",
        "hands": {s: cards_text(c) for s, c in hands.items()},
        "play_log": log,
    }
    answer = api.check(request)
    assert answer["legal"] and answer["complete"], answer["reason"]
    total = card_points(c for cards in hands.values() for c in cards)
    assert sum(t["points"] for t in answer["tricks"]) == total
    ns = sum(t["points"] for t in answer["tricks"] if t["winner"] in "NS")
    assert answer["defender_points"] == answer["deal"]["defender_points"] == ns
    for before, after in zip(answer["tricks"], answer["tricks"][1:], strict=False):
        assert after["leader"] == before["winner"]
