"""The in-play penalties of the national Guandan text (SPEC 5), as ladder data.

Presets with ``in_play_ladder = "national"`` (guandan-national-2017) use them:

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

Ten-card calls, misplayed combinations and wrong tributes are categories of the national
text only (:data:`NATIONAL_ONLY_CATEGORIES`); out-of-turn play and slow play are incidents
under every preset, with this ladder's steps only under the national one.

A foul and the loss of a round of play are steps of this ladder only; what the chief
referee then rules on the general ladder (a level deduction, a match loss) follows
:mod:`rules_engine.ladder`.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_engine.errors import RulesError
from rules_engine.i18n import t
from rules_engine.ladder import (
    CATEGORIES,
    OUT_OF_TURN,
    SCORED_LAST,
    SLOW_PLAY,
    VERBAL_WARNING,
    VIOLATION,
    Penalty,
)

TEN_CARD_CALL = "ten_card_call"  # 10张报牌 not announced
MISPLAYED_COMBINATION = "misplayed_combination"
WRONG_TRIBUTE = "wrong_tribute"  # found after play began: the offender is scored last

ROUND_OF_PLAY_LOST = "round_of_play_lost"  # 停止一圈出牌权
FOUL = "foul"  # 犯规
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


@dataclass(frozen=True)
class NationalTimes:
    """The national text's time limits, in seconds (the preset's ``play_seconds``,
    ``play_warning_seconds``, ``tribute_seconds`` and ``tribute_return_seconds``)."""

    play_normal: int = 20
    play_warning: int = 30
    tribute: int = 15
    tribute_return: int = 30

    @classmethod
    def of(cls, preset) -> NationalTimes:
        """The limits of a preset (with the event's settings); a limit the preset leaves
        unset (None) is the national text's."""
        given = {
            "play_normal": preset.play_seconds,
            "play_warning": preset.play_warning_seconds,
            "tribute": preset.tribute_seconds,
            "tribute_return": preset.tribute_return_seconds,
        }
        return cls(**{name: value for name, value in given.items() if value is not None})


def in_play_penalties(category: str, previous: int = 0) -> list[Penalty]:
    """The penalties for an in-play offence of ``category`` the team already committed
    ``previous`` times in this match (an empty list: no fixed penalty for it). A wrong
    tribute is scored last in its deal, however often it happened."""
    if isinstance(previous, bool) or not isinstance(previous, int) or previous < 0:
        raise RulesError(t("previous must be a count of earlier offences, 0 or more"), "previous")
    if category == WRONG_TRIBUTE:
        return [Penalty(SCORED_LAST)]
    steps = IN_PLAY_LADDER.get(category)
    if steps is None:
        return []
    return [Penalty(step) for step in steps[min(previous, len(steps) - 1)]]


def slow_play_penalties(seconds: float, times: NationalTimes | None = None) -> list[Penalty]:
    """The penalty for one play that took ``seconds``: none up to 20 s, a verbal warning up
    to 30 s, then a violation and the loss of a round of play."""
    times = times or NationalTimes()
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds < 0:
        raise RulesError(t("seconds must be a time of 0 seconds or more"), "seconds")
    if seconds <= times.play_normal:
        return []
    if seconds <= times.play_warning:
        return [Penalty(VERBAL_WARNING)]
    return [Penalty(VIOLATION), Penalty(ROUND_OF_PLAY_LOST)]


TIMED_ACTIONS = ("play", "tribute", "return")  # what a slow-play incident timed


def slow_play_proposal(
    seconds: float | None, timed: str = "play", times: NationalTimes | None = None
) -> list[Penalty]:
    """What the national text proposes for a slow-play incident that took ``seconds``
    (None: not timed, nothing fixed). A play: :func:`slow_play_penalties`. A tribute (15 s
    after the deal) or its return (30 s) that came late: a verbal warning, the first step of
    the national escalation (the text fixes the limits, not the step; our choice)."""
    if seconds is None:
        return []
    if timed not in TIMED_ACTIONS:
        raise RulesError(
            t("timed must be one of {allowed}", allowed=", ".join(TIMED_ACTIONS)), "timed"
        )
    if timed == "play":
        return slow_play_penalties(seconds, times)
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds < 0:
        raise RulesError(t("seconds must be a time of 0 seconds or more"), "seconds")
    return [Penalty(VERBAL_WARNING)] if tribute_late(seconds, timed == "return", times) else []


def tribute_late(
    seconds: float, is_return: bool = False, times: NationalTimes | None = None
) -> bool:
    """True when a tribute (15 s after the deal) or a return (30 s) came too late."""
    times = times or NationalTimes()
    return seconds > (times.tribute_return if is_return else times.tribute)
