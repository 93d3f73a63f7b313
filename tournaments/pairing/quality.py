"""How good a round's pairing is (issue 38): pure figures from plain data (no Django).

``round_quality`` takes a round's tables and byes and every team as the pairing saw it before
the round (``PairingTeam``: score, opponents, sides, unit, bye) and answers, as JSON-able
data: the rematches, the tables joining two score groups and by how far (in score groups of
the round's field, and in points), the largest score difference at a table, the unit
clashes, the teams whose home/away count is out of balance after the round, and the byes
(a second bye counted apart). A rematch is published only once the organiser confirms it
with a reason: the report carries that reason. The event file carries it for every round; the checker
recomputes it, for the pairing played and for the matcher's best pairing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .core import PairingTeam

IMBALANCE = 2  # a team with this many more home than away sittings (or the reverse)


def round_quality(
    tables: Iterable[tuple[int | None, int, int]],
    byes: Iterable[int],
    before: Mapping[int, PairingTeam],
    confirmed: str | None = None,
) -> dict:
    """The quality report of one round: ``tables`` as (table, home, away), ``byes`` the
    teams with a bye, ``before`` every team of the round as it stood before it;
    ``confirmed`` the organiser's reason when the round's rematches were confirmed."""
    tables = sorted(tables, key=lambda t: (t[0] is None, t[0] or 0, t[1]))
    byes = sorted(byes)
    playing = [team for _, home, away in tables for team in (home, away)] + byes
    scores = sorted({before[team].score for team in playing}, reverse=True)
    group = {score: index for index, score in enumerate(scores)}
    rematches, floats, clashes = [], [], []
    largest = 0
    for table, home, away in tables:
        h, a = before[home], before[away]
        if away in h.opponents or home in a.opponents:
            rematches.append(table)
        difference = abs(h.score - a.score)
        largest = max(largest, difference)
        if difference:
            floats.append(
                {
                    "table": table,
                    "groups": abs(group[h.score] - group[a.score]),
                    "points": _number(difference),
                }
            )
        if h.unit is not None and h.unit == a.unit:
            clashes.append(table)
    imbalanced = []
    for _, home, away in tables:
        for team, home_now in ((home, True), (away, False)):
            t = before[team]
            balance = t.home_count - t.away_count + (1 if home_now else -1)
            if abs(balance) >= IMBALANCE:
                imbalanced.append({"team": team, "home_minus_away": balance})
    imbalanced.sort(key=lambda item: item["team"])
    return {
        "tables": len(tables),
        "rematches": len(rematches),
        "rematch_tables": rematches,
        "rematches_confirmed": confirmed if rematches or confirmed else None,
        "floats": len(floats),
        "float_groups": sum(item["groups"] for item in floats),
        "float_tables": floats,
        "largest_score_difference": _number(largest),
        "unit_clashes": len(clashes),
        "unit_clash_tables": clashes,
        "side_imbalanced": len(imbalanced),
        "side_imbalanced_teams": imbalanced,
        "byes": byes,
        "repeated_byes": [team for team in byes if before[team].had_bye],
    }


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value
