"""The idiom deck definition (SPEC 4.4: each card carries an idiom; none is invented)."""

import json

import pytest

from rules_engine.cards import card_text, parse_card
from rules_engine.chengyu import Ring, chain_breaks, load_deck
from rules_engine.errors import RulesError

SEED_IDIOMS = {"S6": "得道多助", "S7": "助人为乐", "S8": "乐不可极"}


def test_shipped_deck_holds_only_the_idioms_the_seed_names():
    deck = load_deck()
    assert len(deck) == 52
    assert {card_text(c): i for c, i in deck.items() if i} == SEED_IDIOMS


def test_seed_idioms_chain_last_character_to_first():
    assert chain_breaks(load_deck(), Ring("H")) == []


def organiser_file(tmp_path, cards):
    path = tmp_path / "deck.json"
    path.write_text(json.dumps({"cards": cards}, ensure_ascii=False), encoding="utf-8")
    return path


def full_deck():
    return {card_text(c): f"成语{i:02d}" for i, c in enumerate(Ring("S").order())}


def test_organiser_deck_with_52_different_idioms_loads(tmp_path):
    deck = load_deck(organiser_file(tmp_path, full_deck()))
    assert len(set(deck.values())) == 52 and deck[parse_card("DA")] == "成语00"


def test_organiser_deck_must_name_every_card(tmp_path):
    cards = full_deck()
    del cards["S7"]
    with pytest.raises(RulesError) as err:
        load_deck(organiser_file(tmp_path, cards))
    assert "S7" in err.value.message


def test_organiser_deck_must_give_every_idiom(tmp_path):
    cards = full_deck() | {"S7": None}
    with pytest.raises(RulesError) as err:
        load_deck(organiser_file(tmp_path, cards))
    assert err.value.field == "cards.S7"


def test_organiser_deck_idioms_are_unique(tmp_path):
    cards = full_deck() | {"S7": "成语00"}
    with pytest.raises(RulesError) as err:
        load_deck(organiser_file(tmp_path, cards))
    assert "成语00" in err.value.message


def test_organiser_deck_names_each_card_once(tmp_path):
    text = json.dumps({"cards": full_deck()}, ensure_ascii=False)
    path = tmp_path / "deck.json"
    path.write_text(text.replace('"S10"', '"ST"').replace('"S9"', '"ST"'), encoding="utf-8")
    with pytest.raises(RulesError):
        load_deck(path)


def test_organiser_deck_has_no_jokers(tmp_path):
    with pytest.raises(RulesError):
        load_deck(organiser_file(tmp_path, full_deck() | {"BJ": "大王成语"}))


def test_unreadable_deck_file_is_a_clear_error(tmp_path):
    path = tmp_path / "deck.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(RulesError) as err:
        load_deck(path)
    assert "not JSON" in err.value.message
    with pytest.raises(RulesError):
        load_deck(tmp_path / "missing.json")


def test_chain_breaks_lists_links_that_do_not_chain():
    deck = {parse_card("S6"): "得道多助", parse_card("S7"): "乐不可极"}
    assert chain_breaks(deck, Ring("H")) == [("S6", "S7")]
