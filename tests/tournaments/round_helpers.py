"""Builders for rounds, matches and counting results in tests of the rounds area: the
factories (tests/factories.py) under the names these tests read best with."""

from __future__ import annotations

from tests.factories import WIN_BY_3, played_round, result, round_

__all__ = ["WIN_BY_3", "add_result", "make_round", "play_round"]

make_round = round_
add_result = result
play_round = played_round
