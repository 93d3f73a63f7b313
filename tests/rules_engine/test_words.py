"""Engine refusals read in words (issue 18): the deal counted from 1, the field and the seats
in words; the machine path stays in ``field`` and in the CLI's English."""

import pytest

from rules_engine.api import score
from rules_engine.errors import RulesError
from rules_engine.i18n import localize
from rules_engine.words import path_words


def refusal(record) -> RulesError:
    with pytest.raises(RulesError) as caught:
        score(record)
    return caught.value


def test_a_refused_deal_names_the_deal_from_one_and_the_seat_in_words():
    err = refusal({"game": "guandan", "deals": [{"finish": ["E", "W", "S", "N"]},
                                                {"finish": ["S", "E", "N", "W"]},
                                                {"finish": ["S", "S", "E"]}]})  # fmt: skip
    assert err.field == "deals[2].finish"
    zh = localize(err.message, "zh-hans", words=True)
    assert zh == "第 3 副的出完顺序：座位 南 出现了两次"
    assert (
        localize(err.message, "en", words=True) == "deal 3, finish order: seat South appears twice"
    )
    assert "deals[2]" in str(err.message)  # the CLI and the machine answer keep the path


def test_paths_in_words_count_items_from_one():
    assert path_words("record.deals[0].bottom_points", "zh-hans") == "第 1 副的底牌分"
    assert path_words("games[1].deals[9].finish", "en") == "game 2, deal 10, finish order"
    assert path_words("previous and play", "zh-hans") == "上家的牌和所出的牌"


def test_field_suffixes_in_a_template_read_as_one_field():
    from rules_engine.i18n import t

    text = t("{field}.type must be one of {types}", field="penalties[0]", types="a, b")
    assert localize(text, "zh-hans", words=True) == "第 1 项判罚的类型 须为 a, b 之一"
