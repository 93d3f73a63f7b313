"""Match formats (SPEC 2, national rules text): when a match is over, and best of three.

A match record may carry ``"format"``; without it a record scores as before. ::

    {"game": "guandan", "preset": "guandan-national",
     "format": {"end": "deals", "deals": 8, "games": 1, "knockout": false},
     "deals": [...], "time_called_in_deal": 6}

``end`` is one of:

- ``pass_a`` (计局制): the match ends when a side passes A, and only then;
- ``deals`` (计副制): after ``deals`` deals (or earlier when a side passes A);
- ``time`` (计时制, ``minutes`` default 60): at time (or earlier when a side passes A).
  The referee records ``time_called_in_deal``: the deal in play when time was called.
  The preset's ``time_up`` rule says what follows: ``finish_deal`` ends the match with
  that deal, ``one_more_deal`` after the next one;
- ``time_or_deals`` (计时计副制): whichever of the two comes first.

``knockout`` (a knockout match must produce a winner): when the levels are equal at
the end, one more deal at a time decides (the preset's ``knockout_extra_deal``; when
it is off, an equal match stays a draw).

``games: 3`` is best of three (三局二胜): the record holds ``"games": [{"deals": [...],
"time_called_in_deal"?}, ...]`` instead of ``deals``; each game ends by the format;
a game may instead give only its final levels (``{"final_levels": {"EW": "9", "NS": "4"},
"passed_a": null}``, when the preset allows final levels): such a game is over as entered;
the match is over when a side has won two games (a drawn game counts for neither;
after three games the side with more game wins takes the match, equal is a draw).
The match points go to the match winner as for one game, from the games' level
differences added up.

The answer is the game's own answer plus ``over`` (bool), ``end`` (why it ended:
``passed_a``, ``deals``, ``time``, ``extra_deal``; null while it is not over) and
``format``; best of three adds ``games`` (one answer per game), ``games_won`` and ``next``
(``game_2``/``game_3`` while the match is not over and its last game is: at one game each
after two games, ``game_3``; null otherwise). A
deal after the end is refused, naming the deal and why the match was over. A record (or a
game) entered by its final levels is over as entered (``end``: ``final_levels``).
"""

from __future__ import annotations

from rules_engine.errors import RulesError, sub_field
from rules_engine.final_levels import is_final_levels
from rules_engine.format_fields import BEST_OF, GAMES_TO_WIN, is_best_of_three, parse_format
from rules_engine.games import game_module
from rules_engine.i18n import Text, t
from rules_engine.presets import Preset, level_points, match_points, resolve_preset

LEVEL_GAMES = ("guandan", "tractor")


def time_called(record: dict, field: str) -> int | None:
    value = record.get("time_called_in_deal")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RulesError(
            t("{field} must be the number of the deal in play when time was called", field=field),
            field,
        )
    return value


def regular_end(fmt: dict, preset: Preset, called: int | None) -> tuple[int | None, str | None]:
    """The deal after which the match ends without a pass of A: (deal count, why)."""
    ends = []
    if fmt["end"] in ("deals", "time_or_deals"):
        ends.append((fmt["deals"], "deals"))
    if fmt["end"] in ("time", "time_or_deals") and called is not None:
        ends.append((called + (preset.time_up == "one_more_deal"), "time"))
    return min(ends) if ends else (None, None)


def score_game(score, record: dict, deals: list, fmt: dict, preset: Preset, where: str) -> dict:
    """Score one game of the record by the format: where it ended, and refuse extra deals."""
    called = time_called(
        record, sub_field(where, "time_called_in_deal") if where else "time_called_in_deal"
    )
    limit, why = regular_end(fmt, preset, called)
    base = {key: value for key, value in record.items() if key not in ("format", "games")}
    base.pop("time_called_in_deal", None)
    deals_field = sub_field(where, "deals") if where else "deals"
    if is_final_levels(base):  # entered by its final levels: over as entered
        try:
            answer = score({**base, "deals": deals})
        except RulesError as err:
            field = sub_field(where, err.field) if where and err.field else where or err.field
            raise RulesError(err.message, field) from None
        return {**answer, "over": True, "end": "final_levels"}
    answer = score({**base, "deals": []}) if not deals else None  # the game's own answer
    end = None
    for count in range(1, len(deals) + 1):
        if end is not None:
            raise RulesError(
                t(
                    "{where}: the match was over after deal {count} ({why})",
                    where=sub_field(deals_field, count - 1),
                    count=count - 1,
                    why=END_REASONS[end],
                ),
                sub_field(deals_field, count - 1),
            )
        answer = score({**base, "deals": deals[:count]})
        if answer.get("passed_a"):
            end = "passed_a"
        elif limit is not None and count >= limit:
            equal = answer.get("level_difference") == 0
            if fmt["knockout"] and preset.knockout_extra_deal and equal:
                continue  # one more deal at a time decides
            end = why if count == limit else "extra_deal"
    return {**answer, "over": end is not None, "end": end}


END_REASONS = {
    "passed_a": t("a side passed A"),
    "deals": t("the set number of deals was played"),
    "time": t("time was up"),
    "extra_deal": t("the extra deal decided it"),
    "final_levels": t("the final levels were entered"),
    # an idiom-chain match lost 4:9 by penalty (rules_engine.chengyu.scoring; seed 七)
    "round_lost": t("the round was lost 4:9 by penalty"),
}
# What a score answer's ``next`` says while the match is not over (an idiom-chain record of
# fewer than its deals, or tied: seed 六 加赛, one deal at a time).
# Best of three (``next_game``): the last game entered is over and the match is not, e.g. one
# game each after two games: the next game decides, never "one more deal" (issue 35).
NEXT_STEPS = {
    "one_more_deal": t("not over: one more deal"),
    "game_2": t("not over: play game 2"),
    "game_3": t("not over: play game 3"),
}


def deals_needed(record: dict) -> int | None:
    """The deals a whole match of ``record`` needs at least (None: no set number, e.g. a
    match until a side passes A, by time, or best of three): an idiom-chain match's
    ``deals_per_match``; a level game's format of ``deals``."""
    game = record.get("game") if isinstance(record, dict) else None
    try:
        if game == "chengyu":
            from rules_engine.chengyu.scoring import deals_of_match

            return deals_of_match(resolve_preset(record, game))
        fmt = record.get("format")
        if game in LEVEL_GAMES and fmt:
            fmt = parse_format(fmt)
            if not is_best_of_three(fmt) and fmt["end"] in ("deals", "time_or_deals"):
                return fmt["deals"]
    except (RulesError, KeyError, TypeError):
        return None
    return None


def not_over(record: dict, answer: dict) -> Text | None:
    """Why a stored result is not a whole match yet, in words; None when it is one (the
    engine's answer says ``over``, or carries no ``over``: a record without a format, scored
    by the game's own end). An answer that is not over cannot count: an idiom-chain record
    of 2 deals of 3, a best of three at one game each, a format's deals not all played
    (issue 35)."""
    if not isinstance(answer, dict) or answer.get("over") is not False:
        return None
    if isinstance(answer.get("games_won"), dict):  # best of three
        return NEXT_STEPS.get(answer.get("next")) or t("not over: the game in play is not over")
    played, needed = len(answer.get("trace") or []), deals_needed(record)
    if needed and played < needed:
        return t("not over: {played} of {needed} deals played", played=played, needed=needed)
    if answer.get("next") in NEXT_STEPS:
        return NEXT_STEPS[answer["next"]]
    if answer.get("levels") and answer.get("level_difference") == 0:
        return NEXT_STEPS["one_more_deal"]  # a knockout at equal levels: the extra deal
    return t("not over yet")


def with_level_points(record: dict, answer: dict) -> dict:
    """Add 级差分 (``level_points``) to a score answer when the record's preset has them."""
    if not isinstance(answer, dict) or "match_points" not in answer:
        return answer
    try:
        preset = resolve_preset(record, record.get("game"))
    except (RulesError, KeyError):
        return answer
    points = level_points(preset, answer)
    if points is None:
        return answer
    if "games" in answer and isinstance(answer["games"], list):
        answer = {**answer, "games": [with_level_points(record, game) for game in answer["games"]]}
    return {**answer, "level_points": points}


def score(record: dict) -> dict:
    """Score a record that carries a ``format`` (see the module docstring)."""
    game = record.get("game")
    if game not in LEVEL_GAMES:
        raise RulesError(
            t("match formats apply to guandan and tractor, not {game}", game=game), "format"
        )
    fmt = parse_format(record["format"])
    preset = resolve_preset(record, game)
    game_score = game_module(game).score
    if record.get("forfeit") is not None:
        base = {key: value for key, value in record.items() if key != "format"}
        return {**game_score(base), "over": True, "end": "forfeit", "format": fmt}
    if not is_best_of_three(fmt):
        deals = record.get("deals") or []
        if not isinstance(deals, list):
            raise RulesError(t("deals must be a list of deals"), "deals")
        answer = score_game(game_score, record, deals, fmt, preset, "")
        return {**answer, "format": fmt}
    return score_best_of_three(game_score, record, fmt, preset)


def score_best_of_three(game_score, record: dict, fmt: dict, preset: Preset) -> dict:
    games = record.get("games")
    if not isinstance(games, list) or not games:
        raise RulesError(
            t('best of three needs "games": a list of up to three games, each with its deals'),
            "games",
        )
    if len(games) > BEST_OF:
        raise RulesError(t("best of three has at most three games"), "games")
    won = {"EW": 0, "NS": 0}
    answers = []
    over = False
    for index, game in enumerate(games):
        where = sub_field("games", index)
        if over:
            raise RulesError(
                t(
                    "{where}: the match was already won after game {count}",
                    where=where,
                    count=index,
                ),
                where,
            )
        by_levels = isinstance(game, dict) and is_final_levels(game)
        if not isinstance(game, dict) or not (by_levels or isinstance(game.get("deals"), list)):
            raise RulesError(
                t('{where} must be an object with a "deals" list or "final_levels"', where=where),
                where,
            )
        game_record = {**record, "passed_a": None, **game}
        answer = score_game(game_score, game_record, game.get("deals") or [], fmt, preset, where)
        if not answer["over"] and index < len(games) - 1:
            raise RulesError(
                t("{where}: the game is not over, so the next game cannot start", where=where),
                where,
            )
        answers.append(answer)
        if answer["over"] and answer.get("winner"):
            won[answer["winner"]] += 1
        over = max(won.values()) >= GAMES_TO_WIN or (len(answers) == BEST_OF and answer["over"])
    difference = sum(answer.get("level_difference") or 0 for answer in answers)
    winner = None
    if won["EW"] != won["NS"]:
        winner = "EW" if won["EW"] > won["NS"] else "NS"
    favour = difference if winner == "EW" else -difference if winner == "NS" else 0
    last = answers[-1]
    # not over: a game that is over asks for the next one (game 3 at one game each)
    step = f"game_{len(answers) + 1}" if not over and last["over"] else None
    return {
        "winner": winner if over else None,
        "levels": last.get("levels"),
        "level_difference": difference,
        "passed_a": None,
        "games_won": won,
        "games": answers,
        "match_points": match_points(preset, winner if over else None, max(0, favour)),
        "forfeit": None,
        "preset": preset.name,
        "over": over,
        "end": "games" if over else None,
        "next": step,
        "format": fmt,
        "trace": [entry for answer in answers for entry in answer.get("trace", [])],
    }


def end_reason(answer: dict) -> Text | None:
    """Why the match of a score answer is over, in words (None while it is not over): the
    format's ``end``, or a pass of A when the record had no format."""
    end = answer.get("end") if isinstance(answer, dict) else None
    if end is None and isinstance(answer, dict) and answer.get("passed_a"):
        end = "passed_a"
    if end == "games":
        return t("a side won two games")
    if end == "forfeit":
        return t("a side did not play (forfeit)")
    return END_REASONS.get(end)


def format_text(fmt: dict | None) -> Text | None:
    """A format in words for pages and exports (e.g. "8 deals · best of three")."""
    if not fmt:
        return None
    fmt = parse_format(fmt)
    ends = {
        "pass_a": t("until a side passes A"),
        "deals": t("{deals} deals", deals=fmt["deals"]),
        "time": t("{minutes} minutes", minutes=fmt["minutes"]),
        "time_or_deals": t(
            "{minutes} minutes or {deals} deals, whichever comes first",
            minutes=fmt["minutes"],
            deals=fmt["deals"],
        ),
    }
    parts = [ends[fmt["end"]]]
    if is_best_of_three(fmt):
        parts.append(t("best of three"))
    if fmt["knockout"]:
        parts.append(t("a winner is needed"))
    return joined_dots(parts)


def joined_dots(parts: list[Text]) -> Text:
    result = parts[0]
    for part in parts[1:]:
        result = t("{first} · {second}", first=result, second=part)
    return result
