"""A match format's fields (SPEC 2): what :func:`parse_format` accepts, its defaults, and best of
three's limits. The home of the format's shape; :mod:`rules_engine.match_format` scores a record
by it. Kept apart so that presets (which check an event's ``match_format`` setting here) and the
scoring (which reads presets) do not import each other (issue 29).
"""

from __future__ import annotations

from rules_engine.errors import RulesError, sub_field
from rules_engine.i18n import t

ENDS = ("pass_a", "deals", "time", "time_or_deals")
FORMAT_KEYS = ("end", "deals", "minutes", "games", "knockout")

# Best of three (三局二胜): the one home of its limits. At most BEST_OF games; the first side
# to win GAMES_TO_WIN takes the match. Views, exports, templates and the table phone ask
# games_of / is_best_of_three / limits, never a number of their own.
BEST_OF = 3
GAMES_TO_WIN = BEST_OF // 2 + 1
GAME_COUNTS = (1, BEST_OF)


def games_of(fmt: dict | None) -> int:
    """The most games a match of format ``fmt`` plays: 1, or BEST_OF for best of three."""
    games = (fmt or {}).get("games", 1)
    return games if games in GAME_COUNTS and not isinstance(games, bool) else 1


def is_best_of_three(fmt: dict | None) -> bool:
    return games_of(fmt) == BEST_OF


def best_of_three(fmt: dict) -> dict:
    """``fmt`` played as best of three."""
    return {**fmt, "games": BEST_OF}


def limits(fmt: dict | None) -> dict:
    """What a page needs of the format's games: ``{"best_of_three", "games", "games_to_win"}``."""
    games = games_of(fmt)
    return {
        "best_of_three": games == BEST_OF,
        "games": games,
        "games_to_win": GAMES_TO_WIN if games == BEST_OF else 1,
    }


def parse_format(value: object) -> dict:
    """The format with its defaults; RulesError naming the bad field."""
    if not isinstance(value, dict):
        raise RulesError(t("format must be an object"), "format")
    unknown = [key for key in value if key not in FORMAT_KEYS]
    if unknown:
        raise RulesError(
            t(
                "format: unknown field {key!r} (known: {known})",
                key=unknown[0],
                known=", ".join(FORMAT_KEYS),
            ),
            sub_field("format", unknown[0]),
        )
    end = value.get("end", "pass_a")
    if end not in ENDS:
        raise RulesError(
            t("format.end must be one of {known}", known=", ".join(ENDS)), "format.end"
        )
    deals = value.get("deals")
    if end in ("deals", "time_or_deals"):
        if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
            raise RulesError(
                t("format.deals must be a whole number of deals, 1 or more"), "format.deals"
            )
    minutes = value.get("minutes", 60)
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 1:
        raise RulesError(t("format.minutes must be whole minutes, 1 or more"), "format.minutes")
    games = value.get("games", 1)
    if games not in GAME_COUNTS or isinstance(games, bool):
        raise RulesError(
            t("format.games must be 1 or {best_of} (best of three)", best_of=BEST_OF),
            "format.games",
        )
    knockout = value.get("knockout", False)
    if not isinstance(knockout, bool):
        raise RulesError(t("format.knockout must be true or false"), "format.knockout")
    return {"end": end, "deals": deals, "minutes": minutes, "games": games, "knockout": knockout}
