"""A tractor throw (甩牌) is followed unit by unit (seed 拖拉机 三.2(4) "必须优先应对相同形式…对拖拉机
必须优先跟拖拉机"; SPEC §4.3 "a throw is followed the same way, unit by unit").

The four examples of issue 28 (trump spades, level 5) through ``check``, the CLI and the
legal-play listing, the same reading for the flexible kill, the whole-deal replay, and
hypothesis: every listed follow passes ``check`` and every passing follow is listed, on
random throws and hands; a hand that holds the throw's units laid out must answer with them.
"""

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import api
from rules_engine.i18n import localize
from rules_engine.listing import MAX_LISTED, multiset_combinations

ROOT = Path(__file__).resolve().parents[2]
BASE = {"game": "tractor", "trump": "S", "level": "5"}

# example 1: a throw of two tractors of two pairs
TWO_TRACTORS = "CA CA CK CK C9 C9 C8 C8"
HAND_1 = "C2 C2 C3 C3 C4 C4 CT CT CJ CJ CQ D3"
MIRRORED_1 = "C2 C2 C3 C3 CT CT CJ CJ"
LONG_RUN_1 = "C2 C2 C3 C3 C4 C4 CT CT"  # a tractor of 3 pairs + a pair: one led tractor unanswered
# example 2: a tractor of two pairs and a pair
TRACTOR_AND_PAIR = "CA CA CK CK C9 C9"
HAND_2 = "C2 C2 C3 C3 C4 C4 C7 C7 CQ D3"
MIRRORED_2 = "C2 C2 C3 C3 C7 C7"
# example 3: two loose pairs
TWO_PAIRS = "CA CA C9 C9"
HAND_3 = "C2 C2 C3 C3 C4 C4 C7"
LOOSE_3 = "C2 C2 C4 C4"
# example 4: the flexible kill
TRUMPS_4 = "S2 S2 S3 S3 S4 S4 H3"
KILL_4 = "S2 S2 S3 S3 S4 S4"
FLEXIBLE = {"settings": {"tractor_kill_reading": "flexible"}}


def request(hand: str, lead: str, play: str | None = None, **extra) -> dict:
    found = BASE | {"hand": hand.split(), "lead": lead.split()} | extra
    return found | ({"play": play.split()} if play else {})


def _key(cards) -> tuple[str, ...]:
    """A play as a sorted tuple of card codes (the answers write a 10 as "10")."""
    return tuple(sorted(c.replace("10", "T") for c in cards))


def cli(obj) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "rules_engine", "check", "-"],
        input=json.dumps(obj),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert "Traceback" not in done.stderr
    return json.loads(done.stdout)


# (hand, lead, play, legal, kill, extra request keys), each named by the rule it pins
ISSUE_EXAMPLES = {
    "seed_3_2_4_two_tractors_mirrored_answer_is_legal": (
        HAND_1,
        TWO_TRACTORS,
        MIRRORED_1,
        True,
        False,
        {},
    ),
    "seed_3_2_4_two_tractors_a_longer_run_leaving_a_led_tractor_unanswered_is_illegal": (
        HAND_1,
        TWO_TRACTORS,
        LONG_RUN_1,
        False,
        False,
        {},
    ),
    "seed_3_2_4_tractor_and_pair_answered_by_a_tractor_and_a_pair_is_legal": (
        HAND_2,
        TRACTOR_AND_PAIR,
        MIRRORED_2,
        True,
        False,
        {},
    ),
    "seed_3_2_4_two_loose_pairs_answered_by_two_loose_pairs_is_legal": (
        HAND_3,
        TWO_PAIRS,
        LOOSE_3,
        True,
        False,
        {},
    ),
    "spec_4_3_flexible_kill_trumps_laid_out_as_the_throws_units": (
        TRUMPS_4,
        TRACTOR_AND_PAIR,
        KILL_4,
        True,
        True,
        FLEXIBLE,
    ),
    "seed_3_4_strict_kill_needs_the_throws_shape_as_played": (
        TRUMPS_4,
        TRACTOR_AND_PAIR,
        KILL_4,
        True,
        False,
        {},
    ),
}


@pytest.mark.parametrize("name", ISSUE_EXAMPLES)
def test_issue_28_examples_through_check_and_the_cli(name):
    hand, lead, play, legal, kill, extra = ISSUE_EXAMPLES[name]
    answer = api.check(request(hand, lead, play, **extra))
    assert (answer["legal"], answer["kill"]) == (legal, kill), answer["reason"]
    assert cli(request(hand, lead, play, **extra)) == json.loads(json.dumps(answer))


def test_seed_3_2_4_the_refusal_names_the_unanswered_unit():
    answer = api.check(request(HAND_1, TWO_TRACTORS, LONG_RUN_1))
    assert answer["reason"] == (
        "must answer the throw unit by unit: its unit 2 (a tractor of 2 pairs) needs a tractor"
        " of 2 pairs of clubs (the hand holds it), but the play answers it with a pair and a pair"
    )
    assert "第 2 个单元" in localize(answer["reason"], "zh-hans")


def test_seed_3_2_4_a_tractor_of_two_pairs_and_a_pair_leaves_no_unit_unanswered():
    # a run of three pairs holds the tractor and the pair: it answers both units
    assert api.check(request(HAND_2, TRACTOR_AND_PAIR, "C2 C2 C3 C3 C4 C4"))["legal"]
    # a tractor and singles leaves the led pair unanswered while the hand holds pairs
    answer = api.check(request(HAND_2, TRACTOR_AND_PAIR, "C2 C2 C3 C3 CQ C4"))
    assert not answer["legal"] and "unit 2 (a pair)" in answer["reason"]


def test_seed_3_2_4_two_loose_pairs_any_two_pairs_but_not_a_pair_and_singles():
    assert api.check(request(HAND_3, TWO_PAIRS, "C2 C2 C3 C3"))["legal"]
    assert not api.check(request(HAND_3, TWO_PAIRS, "C2 C2 C3 C7"))["legal"]


def test_seed_3_2_4_listing_on_a_two_tractor_throw_lists_only_the_mirrored_answers():
    answer = cli(request(HAND_1, TWO_TRACTORS, list=True))
    listed = {_key(p["cards"]) for p in answer["legal_plays"]}
    assert listed == {_key(MIRRORED_1.split()), _key("C3 C3 C4 C4 CT CT CJ CJ".split())}
    assert answer["count"] == 2


def test_seed_3_2_4_listing_on_a_tractor_and_pair_throw_lists_the_mirrored_answers():
    answer = cli(request(HAND_2, TRACTOR_AND_PAIR, list=True))
    listed = {_key(p["cards"]) for p in answer["legal_plays"]}
    assert _key(MIRRORED_2.split()) in listed
    assert listed == {
        _key(p.split()) for p in ("C2 C2 C3 C3 C7 C7", "C3 C3 C4 C4 C7 C7", "C2 C2 C3 C3 C4 C4")
    }


def test_seed_3_2_4_listing_on_a_three_plus_three_throw_lists_the_mirrored_answer():
    # a throw of a tractor of two triples and one of two pairs (3+3 and 2+2)
    lead = "CA CA CA CK CK CK C9 C9 C8 C8"
    hand = "C2 C2 C2 C3 C3 C3 C4 C4 C6 C6 CJ CJ D3"
    answer = cli(request(hand, lead, list=True))
    listed = {_key(p["cards"]) for p in answer["legal_plays"]}
    assert listed == {_key("C2 C2 C2 C3 C3 C3 C4 C4 C6 C6".split())}


def test_spec_4_3_flexible_kill_is_listed_as_a_kill_and_wins_the_trick():
    answer = api.check(request(TRUMPS_4, TRACTOR_AND_PAIR, list=True, **FLEXIBLE))
    kills = [sorted(p["cards"]) for p in answer["legal_plays"] if p["kind"] == "kill"]
    assert kills == [sorted(KILL_4.split())]
    trick = (
        BASE
        | FLEXIBLE
        | {
            "trick": [
                {"seat": "E", "cards": TRACTOR_AND_PAIR.split()},
                {"seat": "N", "cards": KILL_4.split()},
                {"seat": "W", "cards": "H2 H2 H3 H3 H4 H6".split()},
                {"seat": "S", "cards": "D2 D2 D3 D3 D4 D6".split()},
            ]
        }
    )
    assert api.check(trick)["winner"] == "N"
    assert api.check(trick | {"settings": {}})["winner"] == "E"


# --- the whole-deal replay ------------------------------------------------------------------

DEAL_HANDS = {
    "E": "CA CA CK CK CT CT C9 C9 HA HA",
    "N": "C2 C2 C3 C3 C4 C4 C7 C7 C8 C8",
    "W": "H2 H2 H3 H3 H4 H4 H6 H6 H7 H7",
    "S": "D2 D2 D3 D3 D4 D4 D6 D6 D7 D7",
}


def deal(answer: str) -> dict:
    """E throws two tractors (no other hand holds a club above the 8: the throw succeeds),
    N answers with ``answer``, then E leads a pair of hearts and N plays what it has left."""
    rest = " ".join((Counter(DEAL_HANDS["N"].split()) - Counter(answer.split())).elements())
    log = [
        ("E", "CA CA CK CK CT CT C9 C9"),
        ("N", answer),
        ("W", "H2 H2 H3 H3 H4 H4 H6 H6"),
        ("S", "D2 D2 D3 D3 D4 D4 D6 D6"),
        ("E", "HA HA"),
        ("N", rest),
        ("W", "H7 H7"),
        ("S", "D7 D7"),
    ]
    return BASE | {
        "dealer": "EW",
        "hands": {s: c.split() for s, c in DEAL_HANDS.items()},
        "play_log": [{"seat": s, "cards": c.split()} for s, c in log],
    }


def test_seed_3_2_4_whole_deal_replay_accepts_the_mirrored_answer_to_a_successful_throw():
    answer = cli(deal("C2 C2 C3 C3 C7 C7 C8 C8"))
    assert answer["legal"] is True and answer["complete"] is True, answer
    assert [trick["winner"] for trick in answer["tricks"]] == ["E", "E"]
    assert api.check(deal("C3 C3 C4 C4 C7 C7 C8 C8"))["legal"] is True


def test_seed_3_2_4_whole_deal_replay_refuses_the_long_run_that_leaves_a_tractor_unanswered():
    answer = api.check(deal("C2 C2 C3 C3 C4 C4 C7 C7"))
    assert answer["legal"] is False and answer["index"] == 1, answer
    assert "unit 2 (a tractor of 2 pairs)" in answer["reason"]


# --- hypothesis: listing and check agree on random throws and hands -----------------------

# clubs in plain order for level 5: consecutive in this list = adjacent positions
PLAIN = ["2", "3", "4", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]


def _throw(draw, units: list[tuple[int, int]]) -> Counter:
    """The club cards of a throw of ``units`` ((width, length) each), laid out from the ace
    down with a gap between units so that they read as separate units."""
    lead: Counter = Counter()
    top = len(PLAIN)
    for width, length in units:
        top -= length
        lead.update({"C" + r: width for r in PLAIN[max(top, 0) : top + length]})
        top -= 1
    return lead


def _unit_lists(min_size: int, widths: list[int]):
    return st.lists(
        st.tuples(st.sampled_from(widths), st.sampled_from([1, 1, 2, 3])),
        min_size=min_size,
        max_size=3,
    ).map(lambda units: [(w, 1 if w == 1 else n) for w, n in units])


@st.composite
def throw_case(draw):
    """A club throw of 2 or 3 units (singles, pairs, triples, tractors of them; at most 9
    cards) and a hand of clubs (copies at most 3 with the throw's) plus a few others."""
    units = draw(_unit_lists(2, [1, 2, 2, 3]).filter(lambda u: sum(w * n for w, n in u) <= 9))
    lead = _throw(draw, units)
    counts = draw(st.lists(st.integers(0, 3), min_size=len(PLAIN), max_size=len(PLAIN)))
    hand = Counter({"C" + r: min(n, 3 - lead["C" + r]) for r, n in zip(PLAIN, counts, strict=True)})
    hand += Counter(draw(st.lists(st.sampled_from(["H2", "D3", "S9", "H5"]), max_size=2)))
    while sum(hand.values()) > 12:  # keep the brute force small: drop the biggest clubs
        hand -= Counter({max(c for c in hand if c.startswith("C")): 1})
    if sum(hand.values()) < sum(lead.values()):
        return None
    return sorted(hand.elements()), sorted(lead.elements())


def _all_plays(hand: list[str], size: int) -> list[tuple[str, ...]]:
    """Every distinct play of ``size`` cards of the hand (as sorted tuples)."""
    items = sorted(Counter(hand).items())
    return [tuple(sorted(play)) for play in multiset_combinations(items, size)]


@given(throw_case())
@settings(max_examples=60, deadline=None)
def test_seed_3_2_4_every_listed_follow_passes_check_and_every_passing_follow_is_listed(case):
    if case is None:
        return
    hand, lead = case
    ask = BASE | {"hand": hand, "lead": lead}
    answer = api.check(ask | {"list": True})
    listed = {_key(p["cards"]) for p in answer["legal_plays"]}
    passing = {
        play
        for play in _all_plays(hand, len(lead))
        if api.check(ask | {"play": list(play)})["legal"]
    }
    assert answer["count"] == len(passing) and passing, "some follow is always legal"
    # the listing shows the first 200 and counts the rest ("more")
    assert listed <= passing and (listed == passing or answer["more"] == len(passing) - MAX_LISTED)


def _laid_out(cards: Counter, units: list[tuple[int, int]]) -> bool:
    """Independent of the engine: do ``cards`` hold disjoint runs, one per (width, length)
    unit, each exactly in the unit's form (a triple's cards may give a pair)?"""
    if not units:
        return True
    (width, length), rest = units[0], units[1:]
    for start in range(len(PLAIN) - length + 1):
        run = ["C" + r for r in PLAIN[start : start + length]]
        if all(cards[c] >= width for c in run):
            if _laid_out(cards - Counter({c: width for c in run}), rest):
                return True
    return False


@st.composite
def mirror_case(draw):
    """A throw of tractors and pairs (at most 10 cards), and a hand that holds its units
    laid out (at lower ranks) plus a few more low clubs."""
    units = draw(_unit_lists(2, [2, 3]).filter(lambda u: sum(w * n for w, n in u) <= 10))
    lead = _throw(draw, units)
    mirror: Counter = Counter()
    start = 0
    for width, length in units:  # from the 2 up, a gap of 0 or 1 rank between units
        start += draw(st.integers(0, 1))
        mirror.update({"C" + r: width for r in PLAIN[start : start + length]})
        start += length
    noise = Counter("C" + r for r in draw(st.lists(st.sampled_from(PLAIN[:6]), max_size=3)))
    hand = mirror + noise
    if max((hand + lead).values()) > 3 or not _laid_out(mirror, units):
        return None
    return sorted(hand.elements()), sorted(lead.elements()), sorted(mirror.elements()), units


@given(mirror_case())
@settings(max_examples=40, deadline=None)
def test_seed_3_2_4_a_hand_holding_the_throws_units_must_answer_with_them(case):
    if case is None:
        return
    hand, lead, mirror, units = case
    ask = BASE | {"hand": hand, "lead": lead}
    if len(mirror) == len(lead):
        assert api.check(ask | {"play": mirror})["legal"], "the mirrored answer is legal"
    for play in _all_plays(hand, len(lead)):
        legal = api.check(ask | {"play": list(play)})["legal"]
        assert legal == _laid_out(Counter(play), units), play


def test_seed_3_2_4_listing_on_a_throw_of_two_triples_lists_the_mirrored_answers():
    # a throw of two loose triples (3 + 3): any two triples answer it, never a triple and a pair
    lead = "CA CA CA C9 C9 C9"
    hand = "C2 C2 C2 C4 C4 C4 C7 C7 C7 C3 C3 D3"
    answer = cli(request(hand, lead, list=True))
    listed = {_key(p["cards"]) for p in answer["legal_plays"]}
    assert listed == {
        _key(p.split()) for p in ("C2 C2 C2 C4 C4 C4", "C2 C2 C2 C7 C7 C7", "C4 C4 C4 C7 C7 C7")
    }
    refused = api.check(request(hand, lead, "C2 C2 C2 C3 C3 C7"))
    assert not refused["legal"] and "unit 2 (a triple)" in refused["reason"]
