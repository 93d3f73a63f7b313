"""Home (East-West) and away (North-South), balanced like chess colours.

In order of priority:
1. no team is home a third time in a row when the other team can take home instead;
2. the team that has been home fewer times sits home;
3. on equal counts, sides alternate: the team whose latest differing side was away
   sits home;
4. otherwise the higher-placed team sits home.
When both teams were home in each of their last two rounds, the home team gets the
"home_twice" flag: the streak could not be avoided.
"""

from __future__ import annotations

from .core import AWAY, FLAG_HOME_TWICE, HOME, PairingTeam


def home_streak(team: PairingTeam) -> bool:
    """True when the team sat home in each of its last two rounds."""
    return team.recent_sides[-2:] == (HOME, HOME)


def alternation_preference(first: PairingTeam, second: PairingTeam) -> int:
    """-1 if `first` should alternate to home, 1 if `second` should, 0 if no history decides."""
    for a, b in zip(reversed(first.recent_sides), reversed(second.recent_sides), strict=False):
        if a != b:
            return -1 if a == AWAY else 1
    return 0


def home_first(upper: PairingTeam, lower: PairingTeam) -> bool:
    """Should `upper` (the higher-placed team) sit home against `lower`?"""
    upper_streak, lower_streak = home_streak(upper), home_streak(lower)
    if upper_streak != lower_streak:
        return lower_streak
    if upper.home_count != lower.home_count:
        return upper.home_count < lower.home_count
    return alternation_preference(upper, lower) <= 0


def assign_sides(upper: PairingTeam, lower: PairingTeam) -> tuple[int, int, frozenset[str]]:
    """Return (home id, away id, side flags) for a pairing of two teams."""
    home, away = (upper, lower) if home_first(upper, lower) else (lower, upper)
    flags = frozenset({FLAG_HOME_TWICE}) if home_streak(home) else frozenset()
    return home.id, away.id, flags
