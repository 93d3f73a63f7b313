"""The in-play penalties of the Guandan texts (SPEC 5), as ladder data: the national text's
ladder and the Suzhou seed's (掼蛋 苏州 十二, 十三 第5条, 十(三), 五(五)).

Presets with ``in_play_ladder = "national"`` (guandan-national, guandan-national-2017) use
the national one:

* Failing to announce 10 cards or fewer (10张报牌), playing out of turn and misplaying a
  combination are incident categories with their own escalation, counted per team in the
  match: 1st a verbal warning; 2nd a violation and the player loses a round of play
  (停止一圈出牌权); 3rd and later a foul (犯规).
* Time per play: up to 20 s is normal, 20–30 s a verbal warning, beyond that (the 10 s
  more) a violation and the loss of a round of play.
* Tribute within 15 s of the deal, the return within 30 s; later is slow play.
* A wrong tribute found after play began: the offender is scored last (下游) in that deal
  (the step ``scored_last``, applied as the ``wrong_tribute`` adjustment of
  :mod:`rules_engine.adjustments`).

Presets with ``in_play_ladder = "suzhou"`` (guandan-suzhou-2016) use the Suzhou seed's:

* 十二 1–3: a wrong card seen by the opponents, an exposed card (暴露张) or out-of-turn play
  (越序出牌): "停止一轮出牌，由下家出牌" — the loss of a round of play, every time (十二 4:
  the referee weighs it, 视情节轻重裁判具有斟酌决定权). It is the same step as the national
  停止一圈出牌权 (:data:`ROUND_OF_PLAY_LOST`: one definition for both texts).
* 十三 第5条: a play within 0–30 s is normal; the return of tribute within 40 s. The seed
  fixes the limits, not the step: a play or return over time is proposed a verbal warning
  (口头警告, 十一 第3条 "轻微且初次") the first time in the match and a warning (警告) after
  (our choice; two warnings make a violation by the general escalation).
* 十(三) 报数: from 10 cards down a player announces the count; a wrong or hidden count is
  judged on the general ladder (判罚犯规人): the category is offered, no step is fixed.
* 五(五) 违规进贡: a violation in tribute or return is ruled "重新给牌" — the tribute is
  given again (:data:`TRIBUTE_REDONE`).

Ten-card calls and wrong tributes are categories of these two ladders, misplayed
combinations of the national one (:data:`LADDER_CATEGORIES`), none of them of the general
ladder (:data:`OWN_CATEGORIES`); out-of-turn play, wrong cards and slow play are incidents
under every preset, with a ladder's steps only under it.

A foul, the loss of a round of play and a tribute given again are steps of these ladders
only, carried beside what the chief referee rules on the general ladder (a level
deduction, a match loss; :mod:`rules_engine.ladder`).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_engine.errors import RulesError
from rules_engine.i18n import t
from rules_engine.ladder_steps import (
    CATEGORIES,
    OUT_OF_TURN,
    SCORED_LAST,
    SLOW_PLAY,
    VERBAL_WARNING,
    VIOLATION,
    WARNING,
    WRONG_CARD,
    Penalty,
)

TEN_CARD_CALL = "ten_card_call"  # 10张报牌 not announced
MISPLAYED_COMBINATION = "misplayed_combination"
WRONG_TRIBUTE = "wrong_tribute"  # found after play began: the offender is scored last

ROUND_OF_PLAY_LOST = "round_of_play_lost"  # 停止一圈出牌权 (national), 停止一轮出牌 (Suzhou)
FOUL = "foul"  # 犯规
TRIBUTE_REDONE = "tribute_redone"  # 重新给牌 (Suzhou 五(五))
IN_PLAY_STEPS = (ROUND_OF_PLAY_LOST, FOUL, TRIBUTE_REDONE)
NATIONAL_STEPS = (ROUND_OF_PLAY_LOST, FOUL)
NATIONAL_STEP_NAMES_ZH = {ROUND_OF_PLAY_LOST: "停止一圈出牌权", FOUL: "犯规"}

# category -> the penalties of the 1st, 2nd, 3rd (and every later) offence in the match
IN_PLAY_LADDER: dict[str, tuple[tuple[str, ...], ...]] = {
    category: ((VERBAL_WARNING,), (VIOLATION, ROUND_OF_PLAY_LOST), (FOUL,))
    for category in (TEN_CARD_CALL, OUT_OF_TURN, MISPLAYED_COMBINATION)
}
NATIONAL_CATEGORIES = (*IN_PLAY_LADDER, SLOW_PLAY, WRONG_TRIBUTE)
# the categories the general ladder has not: logged only under the national in-play ladder
NATIONAL_ONLY_CATEGORIES = tuple(c for c in NATIONAL_CATEGORIES if c not in CATEGORIES)

# Suzhou 十二 1–3: a wrong card, an exposed card, out-of-turn play -> 停止一轮出牌 every time
SUZHOU_LADDER: dict[str, tuple[str, ...]] = {
    WRONG_CARD: (ROUND_OF_PLAY_LOST,),
    OUT_OF_TURN: (ROUND_OF_PLAY_LOST,),
    WRONG_TRIBUTE: (TRIBUTE_REDONE,),  # 五(五) 违规进贡 -> 重新给牌
    TEN_CARD_CALL: (),  # 十(三) 报数: judged on the general ladder (判罚犯规人)
}
# the categories each in-play ladder adds to the general ladder's
LADDER_CATEGORIES: dict[str, tuple[str, ...]] = {
    "national": NATIONAL_ONLY_CATEGORIES,
    "suzhou": tuple(c for c in SUZHOU_LADDER if c not in CATEGORIES),
}
OWN_CATEGORIES = tuple(dict.fromkeys(c for cs in LADDER_CATEGORIES.values() for c in cs))


def offered_categories(in_play_ladder: str | None) -> tuple[str, ...]:
    """The categories of the ladders' own an event with ``in_play_ladder`` offers."""
    return LADDER_CATEGORIES.get(in_play_ladder or "", ())


@dataclass(frozen=True)
class PlayTimes:
    """A preset's time limits in seconds (its ``play_seconds``, ``play_warning_seconds``,
    ``tribute_seconds`` and ``tribute_return_seconds``); None: no limit. A play up to
    ``play_normal`` is normal, up to ``play_warning`` (when set) a verbal warning, beyond it
    over time."""

    play_normal: int | None = None
    play_warning: int | None = None
    tribute: int | None = None
    tribute_return: int | None = None

    @classmethod
    def of(cls, preset) -> PlayTimes:
        """The limits of a preset (with the event's settings); a limit the preset leaves
        unset (None) is this class's default."""
        given = {
            "play_normal": preset.play_seconds,
            "play_warning": preset.play_warning_seconds,
            "tribute": preset.tribute_seconds,
            "tribute_return": preset.tribute_return_seconds,
        }
        return cls(**{name: value for name, value in given.items() if value is not None})


@dataclass(frozen=True)
class NationalTimes(PlayTimes):
    """The national text's time limits: 20 s normal, 30 s a verbal warning; tribute 15 s,
    the return 30 s (what a preset under the national ladder leaves unset)."""

    play_normal: int | None = 20
    play_warning: int | None = 30
    tribute: int | None = 15
    tribute_return: int | None = 30


def times_of(preset) -> PlayTimes:
    """The time limits that judge a slow play in an event of ``preset``: under the national
    ladder, the national text's where the preset leaves them unset; else the preset's own
    (Suzhou 十三 第5条: 30 s a play, 40 s the return; idiom chain 五: 10 s a play)."""
    if getattr(preset, "in_play_ladder", None) == "national":
        return NationalTimes.of(preset)
    return PlayTimes.of(preset)


def in_play_penalties(
    category: str, previous: int = 0, in_play_ladder: str = "national"
) -> list[Penalty]:
    """The penalties for an in-play offence of ``category`` the team already committed
    ``previous`` times in this match (an empty list: no fixed penalty for it). National: a
    wrong tribute is scored last in its deal, however often it happened. Suzhou: a wrong,
    exposed or out-of-turn card loses a round of play, a wrong tribute is given again."""
    if isinstance(previous, bool) or not isinstance(previous, int) or previous < 0:
        raise RulesError(t("previous must be a count of earlier offences, 0 or more"), "previous")
    if in_play_ladder == "suzhou":
        return [Penalty(step) for step in SUZHOU_LADDER.get(category, ())]
    if category == WRONG_TRIBUTE:
        return [Penalty(SCORED_LAST)]
    steps = IN_PLAY_LADDER.get(category)
    if steps is None:
        return []
    return [Penalty(step) for step in steps[min(previous, len(steps) - 1)]]


def _over_time(in_play_ladder: str, previous: int) -> list[Penalty]:
    """What a play over time costs: national, a violation and a round of play; Suzhou (the
    seed fixes no step), a verbal warning the first time in the match, then a warning."""
    if in_play_ladder == "suzhou":
        return [Penalty(VERBAL_WARNING if previous == 0 else WARNING)]
    return [Penalty(VIOLATION), Penalty(ROUND_OF_PLAY_LOST)]


def _late_tribute(in_play_ladder: str, previous: int) -> list[Penalty]:
    if in_play_ladder == "suzhou":
        return _over_time(in_play_ladder, previous)
    return [Penalty(VERBAL_WARNING)]


def _seconds(seconds: object) -> None:
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds < 0:
        raise RulesError(t("seconds must be a time of 0 seconds or more"), "seconds")


def slow_play_penalties(
    seconds: float,
    times: PlayTimes | None = None,
    in_play_ladder: str = "national",
    previous: int = 0,
) -> list[Penalty]:
    """The penalty for one play that took ``seconds``: none up to ``play_normal`` (national
    20 s, Suzhou 30 s), a verbal warning up to ``play_warning`` (national 30 s; Suzhou has no
    such band), then the ladder's over-time step."""
    times = times or NationalTimes()
    _seconds(seconds)
    if times.play_normal is None or seconds <= times.play_normal:
        return []
    if times.play_warning is not None and seconds <= times.play_warning:
        return [Penalty(VERBAL_WARNING)]
    return _over_time(in_play_ladder, previous)


TIMED_ACTIONS = ("play", "tribute", "return")  # what a slow-play incident timed


def slow_play_proposal(
    seconds: float | None,
    timed: str = "play",
    times: PlayTimes | None = None,
    in_play_ladder: str = "national",
    previous: int = 0,
) -> list[Penalty]:
    """What an in-play ladder proposes for a slow-play incident that took ``seconds``
    (None: not timed, nothing fixed). A play: :func:`slow_play_penalties`. A tribute or its
    return that came late (national: 15 s after the deal, 30 s; Suzhou: the return within
    40 s): national, a verbal warning, the first step of its escalation (the text fixes the
    limits, not the step; our choice); Suzhou, as a play over time."""
    if seconds is None:
        return []
    if timed not in TIMED_ACTIONS:
        raise RulesError(
            t("timed must be one of {allowed}", allowed=", ".join(TIMED_ACTIONS)), "timed"
        )
    if timed == "play":
        return slow_play_penalties(seconds, times, in_play_ladder, previous)
    _seconds(seconds)
    if not tribute_late(seconds, timed == "return", times):
        return []
    return _late_tribute(in_play_ladder, previous)


def tribute_late(seconds: float, is_return: bool = False, times: PlayTimes | None = None) -> bool:
    """True when a tribute (national: 15 s after the deal) or a return (national 30 s,
    Suzhou 40 s) came too late; never when the preset sets no such limit."""
    times = times or NationalTimes()
    limit = times.tribute_return if is_return else times.tribute
    return limit is not None and seconds > limit
