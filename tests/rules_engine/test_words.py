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
    err = refusal(
        {
            "game": "guandan",
            "deals": [
                {"finish": ["E", "W", "S", "N"]},
                {"finish": ["S", "E", "N", "W"]},
                {"finish": ["S", "S", "E"]},
            ],
        }
    )
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
    assert localize(text, "zh-hans", words=True) == "第 1 项判罚的类型须为 a, b 之一"


def test_cards_and_games_of_a_message_are_in_words_for_people():
    """Issue 24: no card code (S8, CA) and no game code (guandan) on a page."""
    from rules_engine.i18n import localize, t

    text = t("must chain to {card} (必出) with {chains}", card="S7", chains=["S8", "CA"])
    assert localize(text, "zh-hans", words=True) == "须用 ♠8 ♣A 接龙头 ♠7（必出）"
    assert localize(text, "en", words=True) == "must chain to ♠7 (必出) with ♠8 ♣A"
    assert localize(text, "en") == "must chain to S7 (必出) with ['S8', 'CA']"  # the CLI's
    game = t("match formats apply to guandan and tractor, not {game}", game="chengyu")
    assert (
        localize(game, "zh-hans", words=True) == "赛制只适用于掼蛋和拖拉机，不适用于 成语接龙扑克"
    )
    joker = t("play {card} is not in the hand", card="BJ")
    assert localize(joker, "zh-hans", words=True) == "所出的 大王 不在手牌中"
