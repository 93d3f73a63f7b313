"""掼蛋 Guandan (SPEC 4.2): combinations with wild cards, scoring, tribute, play-log replay.

The Python API the Django apps call; the JSON requests are in :mod:`.interchange`.
"""

from rules_engine.guandan.combos import KINDS, Reading, beats, classify, reading_beats
from rules_engine.guandan.replay import Play, ReplayResult, replay_deal
from rules_engine.guandan.scoring import deal_result, score_match
from rules_engine.guandan.tribute import Transfer, TributeRuling, check_tribute

__all__ = [
    "KINDS",
    "Play",
    "Reading",
    "ReplayResult",
    "Transfer",
    "TributeRuling",
    "beats",
    "check_tribute",
    "classify",
    "deal_result",
    "reading_beats",
    "replay_deal",
    "score_match",
]
