"""Issue 39: an adjustment naming a deal the record does not hold is refused, naming the
adjustment's deal — never applied as if it named none (a level deduction "in deal 5" of a
one-deal record moved the levels), nor refused under another name (``penalties[0]``)."""

from __future__ import annotations

import pytest

from rules_engine import adjustments
from rules_engine.errors import RulesError

GUANDAN = {"game": "guandan", "deals": [{"finish": ["E", "W"]}]}
CHENGYU = {"game": "chengyu", "deals": [{"tricks": {"EW": 8, "NS": 5}}] * 3}


@pytest.mark.parametrize(
    "record, adjustment",
    [
        (GUANDAN, {"type": "level_deduction", "side": "EW", "levels": 1, "deal": 5}),
        (GUANDAN, {"type": "opponent_level_up", "side": "NS", "levels": 1, "deal": 2}),
        (GUANDAN, {"type": "match_loss", "side": "EW", "deal": 9}),
        (GUANDAN, {"type": "wrong_tribute", "side": "EW", "seat": "E", "deal": 5}),
        (CHENGYU, {"type": "trick_to_opponents", "side": "EW", "deal": 4}),
        (CHENGYU, {"type": "round_lost", "side": "NS", "deal": 7}),
    ],
    ids=["level", "opponent-up", "match-loss", "wrong-tribute", "trick", "round-lost"],
)
def test_an_adjustment_naming_a_deal_that_does_not_exist_is_refused(record, adjustment):
    with pytest.raises(RulesError) as scored:
        adjustments.score(record | {"adjustments": [adjustment]})
    assert scored.value.field == "adjustments[0].deal"
    count = len(record["deals"])
    assert f"has no deal {adjustment['deal']} (it holds {count})" in scored.value.message
    assert f"没有第 {adjustment['deal']} 副" in scored.value.localized("zh-hans")
    with pytest.raises(RulesError) as added:
        adjustments.add_adjustment(record, adjustment)
    assert added.value.field == "adjustment.deal"


def test_an_adjustment_naming_a_deal_the_record_holds_is_applied():
    adjustment = {"type": "level_deduction", "side": "EW", "levels": 1, "deal": 1}
    answer = adjustments.score(GUANDAN | {"adjustments": [adjustment]})
    assert answer["adjustments"] == [adjustment]
