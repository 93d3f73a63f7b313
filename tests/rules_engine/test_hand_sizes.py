"""Issue 39: a hand holds no more cards than its game deals (SPEC 4.2–4.4): 27 in guandan
(two decks), 39 in tractor (three decks, 6 in the bottom), 13 in the idiom chain (one deck of
52). A 14-card idiom-chain hand and a 66-card tractor hand were answered as if dealt."""

from __future__ import annotations

import io
import json

import pytest

from rules_engine import api
from rules_engine.cards import DECK, card_text
from rules_engine.cli import EXIT_BAD_INPUT, run
from rules_engine.errors import RulesError

SUITED = [card_text(c) for c in DECK if card_text(c) not in ("LJ", "BJ")]  # 52 cards


def copies(count: int, decks: int) -> list[str]:
    """``count`` cards, each at most ``decks`` times."""
    cards = [card_text(c) for c in DECK] * decks
    cards.sort()
    return cards[:count]


def refused(request: dict) -> RulesError:
    with pytest.raises(RulesError) as caught:
        api.check(request)
    return caught.value


def test_a_14_card_idiom_chain_hand_is_refused_naming_the_hand():
    hand = [c for c in SUITED if c != "S3"][:13] + ["S3"]
    error = refused({"game": "chengyu", "trump": "H", "hand": hand, "trick": [], "play": "S3"})
    assert error.field == "hand"
    assert error.message == "hand holds 14 cards; a hand of this game holds at most 13"
    assert error.localized("zh-hans") == "hand 有 14 张牌；本游戏一手牌最多 13 张"


def test_a_13_card_idiom_chain_hand_is_answered():
    hand = ["S3", *[c for c in SUITED if c != "S3"][:12]]
    answer = api.check({"game": "chengyu", "trump": "H", "hand": hand, "trick": [], "play": "S3"})
    assert "legal" in answer


def test_a_66_card_tractor_hand_is_refused_naming_the_hand():
    hand = copies(66, 3)
    request = {"game": "tractor", "trump": "S", "level": "5", "hand": hand, "play": [hand[0]]}
    error = refused(request)
    assert error.field == "hand"
    assert "holds 66 cards; a hand of this game holds at most 39" in error.message


def test_a_tractor_throw_against_a_40_card_hand_is_refused():
    request = {
        "game": "tractor",
        "trump": "S",
        "level": "5",
        "throw": ["CA"],
        "others": [copies(40, 2)],
    }
    error = refused(request)
    assert error.field == "others[0]" and "at most 39" in error.message


def test_a_tractor_play_log_of_40_card_hands_is_refused():
    pool = copies(160, 3)
    hands = {seat: pool[i * 40 : (i + 1) * 40] for i, seat in enumerate("ESWN")}
    request = {
        "game": "tractor",
        "trump": "S",
        "level": "5",
        "dealer": "EW",
        "hands": hands,
        "play_log": [],
    }
    error = refused(request)
    assert error.field == "hands.E" and "holds 40 cards" in error.message


def test_a_28_card_guandan_hand_is_refused_and_27_is_not():
    hand = copies(28, 2)
    error = refused({"game": "guandan", "level": "2", "hand": hand, "play": [hand[0]]})
    assert (
        error.field == "hand"
        and "holds 28 cards" in error.message
        and "at most 27" in error.message
    )
    listed = {"game": "guandan", "level": "2", "hand": hand[:27], "list": True}
    assert api.check(listed)["legal_plays"]
    assert "holds 28 cards" in refused(listed | {"hand": hand}).message


def test_the_cli_answers_a_66_card_tractor_hand_as_bad_input(tmp_path):
    hand = copies(66, 3)
    path = tmp_path / "request.json"
    request = {"game": "tractor", "trump": "S", "level": "5", "hand": hand, "play": [hand[0]]}
    path.write_text(json.dumps(request), "utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert run("check", str(path), out, err) == EXIT_BAD_INPUT
    assert "(field: hand)" in err.getvalue() and "at most 39" in err.getvalue()


@pytest.mark.parametrize(
    "game, preset, decks", [("tractor", "tractor", 3), ("chengyu", "chengyu", 1)]
)
def test_an_events_deck_count_is_the_games_own(game, preset, decks):
    """The engine deals and checks hands by each game's decks: an event setting of 9 decks
    was accepted and meant nothing."""
    from rules_engine.presets import event_preset

    assert event_preset(game, preset, {"decks": decks}).decks == decks
    with pytest.raises(RulesError) as caught:
        event_preset(game, preset, {"decks": 9})
    assert caught.value.field == "settings.decks" and "not 9" in caught.value.message
