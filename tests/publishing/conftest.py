"""An event with Chinese team names, published rounds and counting results."""

from __future__ import annotations

import pytest

from tests import factories

CHINESE_NAMES = ["龙城队", "姑苏队", "金陵队", "钱塘队", "锡山队", "古运河队", "太湖队", "虎丘队"]
# EW goes out first with the partner second (双上): EW +3 levels, 13:7 on the 20-point scale
EW_WINS = {
    "game": "guandan",
    "preset": "guandan-suzhou-2016",
    "deals": [{"finish": ["E", "W", "S", "N"]}],
}


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return tmp_path / "media"


def add_round(tournament, number, pairs, status="complete", bye=None, record=EW_WINS):
    """A round with matches for (home, away) pairs (tables 1..n), each won by home."""
    rnd = factories.round_(tournament, number, pairs, byes=[bye] if bye else (), status=status)
    if status in ("complete", "finalised") and record is not None:
        for match in rnd.matches.exclude(away=None).order_by("table_number"):
            factories.result(match, deals=record["deals"])
    return rnd


@pytest.fixture
def chinese_event(make_tournament, media):
    """8 teams with Chinese names (units 苏州/无锡), round 1 and 2 complete, round 3 published."""
    tournament = make_tournament(
        name="苏州掼蛋公开赛", slug="suzhou-open", venue="苏州体育中心", units=0
    )
    teams = [
        factories.team(
            tournament,
            name,
            unit=("苏州", "无锡")[i % 2],
            players=[f"{name[0]}选手{seat}" for seat in (1, 2)],
            draw_lot=i + 1,
        )
        for i, name in enumerate(CHINESE_NAMES)
    ]
    t = teams
    add_round(tournament, 1, [(t[0], t[1]), (t[2], t[3]), (t[4], t[5]), (t[6], t[7])])
    add_round(tournament, 2, [(t[0], t[2]), (t[1], t[3]), (t[4], t[6]), (t[5], t[7])])
    add_round(
        tournament, 3, [(t[0], t[4]), (t[2], t[6]), (t[1], t[5]), (t[3], t[7])], status="published"
    )
    tournament.teams_in_order = teams
    return tournament
