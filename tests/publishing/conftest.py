"""Builders of the exports area (the Chinese event itself is tests.factories.chinese_event)."""

from __future__ import annotations

from tests import factories
from tests.factories import CHINESE_NAMES  # noqa: F401 - read by the tests of this area

# EW goes out first with the partner second (双上): EW +3 levels, 13:7 on the 20-point scale
EW_WINS = {
    "game": "guandan",
    "preset": "guandan-suzhou-2016",
    "deals": [{"finish": ["E", "W", "S", "N"]}],
}


def add_round(tournament, number, pairs, status="complete", bye=None, record=EW_WINS):
    """A round with matches for (home, away) pairs (tables 1..n), each won by home."""
    rnd = factories.round_(tournament, number, pairs, byes=[bye] if bye else (), status=status)
    if status in ("complete", "finalised") and record is not None:
        for match in rnd.matches.exclude(away=None).order_by("table_number"):
            factories.result(match, deals=record["deals"])
    return rnd
