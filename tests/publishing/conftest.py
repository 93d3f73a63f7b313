"""An event with Chinese team names, published rounds and counting results."""

from __future__ import annotations

import pytest

from rules_engine import api as rules_api

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
    from tournaments.models import Match, ResultVersion, Round, RoundSlot

    rnd = Round.objects.create(tournament=tournament, number=number, status=status)
    for table, (home, away) in enumerate(pairs, start=1):
        match = Match.objects.create(round=rnd, table_number=table, home=home, away=away)
        RoundSlot.objects.create(round=rnd, match=match, team=home, side="EW")
        RoundSlot.objects.create(round=rnd, match=match, team=away, side="NS")
        if status in ("complete", "finalised") and record is not None:
            ResultVersion.objects.create(
                match=match,
                number=1,
                record=record,
                outcome=rules_api.score(record),
                is_counting=True,
            )
    if bye is not None:
        match = Match.objects.create(round=rnd, home=bye)
        RoundSlot.objects.create(round=rnd, match=match, team=bye, side="EW")
    return rnd


@pytest.fixture
def chinese_event(make_tournament, media):
    """8 teams with Chinese names (units 苏州/无锡), round 1 and 2 complete, round 3 published."""
    from tournaments.models import Player, Team, Unit

    tournament = make_tournament(name="苏州掼蛋公开赛", slug="suzhou-open", venue="苏州体育中心")
    units = [Unit.objects.create(tournament=tournament, name=name) for name in ("苏州", "无锡")]
    teams = []
    for i, name in enumerate(CHINESE_NAMES):
        team = Team.objects.create(
            tournament=tournament, name=name, unit=units[i % 2], draw_lot=i + 1
        )
        Player.objects.bulk_create(
            [Player(team=team, name=f"{name[0]}选手{seat}", seat_order=seat) for seat in (1, 2)]
        )
        teams.append(team)
    t = teams
    add_round(tournament, 1, [(t[0], t[1]), (t[2], t[3]), (t[4], t[5]), (t[6], t[7])])
    add_round(tournament, 2, [(t[0], t[2]), (t[1], t[3]), (t[4], t[6]), (t[5], t[7])])
    add_round(
        tournament, 3, [(t[0], t[4]), (t[2], t[6]), (t[1], t[5]), (t[3], t[7])], status="published"
    )
    tournament.teams_in_order = teams
    return tournament
