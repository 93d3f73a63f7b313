"""Penalty ladders, escalation, lateness and the appeal procedure (SPEC 5; seeds 000, 003).

Pure data and functions; the arbitration app stores what these return.

The discipline ladder (guandan seed 003, used for every game):
口头警告 verbal warning → 警告 warning → 记违例 violation → 降级 level deduction (or the
opponent goes up) → 判负 match loss → 停赛 suspension.

Escalation per team per event (configurable): every 2nd warning makes a violation, every
3rd violation a match loss, every 2nd match loss a suspension. Steps made by escalation
count in turn (two warnings can end, through a violation, in a match loss).

The idiom-chain ladder (seed 000) names the penalty from the offence and how often the
team committed it in the same match: speaking out of turn — 1st a warning, 2nd one trick
to the opponents, 3rd the round lost 4:9; a missed 必出 or a changed play — one trick; no
valid play within the 10 seconds of a play (seed 五 出牌时限) — one trick, every time;
showing cards to a partner — the round lost 4:9; a spectator's hint — the beneficiary
loses the round 4:9 and the hinting unit drops one place in the final ranking.

Settings (an event's ``settings`` may override them, see :func:`ladder_settings`):
``escalation`` ({"warning": [2, "violation"], ...}), ``late_limit_minutes`` (10),
``late_leave_limit_minutes`` (15), ``appeal_minutes`` (30), ``answer_minutes`` (120),
``answer_near_minutes`` (30).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from datetime import datetime, timedelta

from rules_engine.errors import RulesError
from rules_engine.i18n import gettext_noop, t
from rules_engine.ladder_national import in_play_penalties, slow_play_proposal
from rules_engine.ladder_steps import (
    CARD_SHOWING as CARD_SHOWING,
)
from rules_engine.ladder_steps import (
    CATEGORIES as CATEGORIES,
)
from rules_engine.ladder_steps import (
    CHANGED_PLAY as CHANGED_PLAY,
)
from rules_engine.ladder_steps import (
    CHENGYU_STEPS as CHENGYU_STEPS,
)
from rules_engine.ladder_steps import (
    FORFEIT as FORFEIT,
)
from rules_engine.ladder_steps import (
    LADDER as LADDER,
)
from rules_engine.ladder_steps import (
    LATE_ARRIVAL as LATE_ARRIVAL,
)
from rules_engine.ladder_steps import (
    LEVEL_DEDUCTION as LEVEL_DEDUCTION,
)
from rules_engine.ladder_steps import (
    LEVEL_GAMES as LEVEL_GAMES,
)
from rules_engine.ladder_steps import (
    MATCH_LOSS as MATCH_LOSS,
)
from rules_engine.ladder_steps import (
    MISSED_COMPULSORY as MISSED_COMPULSORY,
)
from rules_engine.ladder_steps import (
    NATIONAL_ONLY_STEPS as NATIONAL_ONLY_STEPS,
)
from rules_engine.ladder_steps import (
    NO_PENALTY as NO_PENALTY,
)
from rules_engine.ladder_steps import (
    OTHER as OTHER,
)
from rules_engine.ladder_steps import (
    OUT_OF_TURN as OUT_OF_TURN,
)
from rules_engine.ladder_steps import (
    RANKING_DROP as RANKING_DROP,
)
from rules_engine.ladder_steps import (
    RESULT_STEPS as RESULT_STEPS,
)
from rules_engine.ladder_steps import (
    ROUND_LOST as ROUND_LOST,
)
from rules_engine.ladder_steps import (
    SCORED_LAST as SCORED_LAST,
)
from rules_engine.ladder_steps import (
    SIGNALLING as SIGNALLING,
)
from rules_engine.ladder_steps import (
    SLOW_PLAY as SLOW_PLAY,
)
from rules_engine.ladder_steps import (
    SPECTATOR_HINT as SPECTATOR_HINT,
)
from rules_engine.ladder_steps import (
    STEPS as STEPS,
)
from rules_engine.ladder_steps import (
    SUSPENSION as SUSPENSION,
)
from rules_engine.ladder_steps import (
    TRICK_TO_OPPONENTS as TRICK_TO_OPPONENTS,
)
from rules_engine.ladder_steps import (  # the vocabulary, kept importable from here
    VERBAL_WARNING as VERBAL_WARNING,
)
from rules_engine.ladder_steps import (
    VIOLATION as VIOLATION,
)
from rules_engine.ladder_steps import (
    WARNING as WARNING,
)
from rules_engine.ladder_steps import (
    WRONG_CARD as WRONG_CARD,
)
from rules_engine.ladder_steps import (
    Penalty as Penalty,
)
from rules_engine.ladder_steps import (
    check_step as check_step,
)
from rules_engine.ladder_steps import (
    steps_for as steps_for,
)
from rules_engine.schema import check_values, setting


def chengyu_penalties(category: str, previous: int = 0) -> list[Penalty]:
    """The idiom-chain ladder: the penalties for an offence of ``category`` that the team
    already committed ``previous`` times in this match. An empty list: the chief referee
    chooses from the general ladder."""
    if category not in CATEGORIES:
        raise RulesError(
            t(
                "category must be one of {categories}, not {category!r}",
                categories=", ".join(CATEGORIES),
                category=category,
            ),
            "category",
        )
    if isinstance(previous, bool) or not isinstance(previous, int) or previous < 0:
        raise RulesError(t("previous must be a count of earlier offences, 0 or more"), "previous")
    if category == SIGNALLING:
        step = (WARNING, TRICK_TO_OPPONENTS, ROUND_LOST)[min(previous, 2)]
        return [Penalty(step)]
    if category in (MISSED_COMPULSORY, CHANGED_PLAY, SLOW_PLAY):
        # 七.二, 七.三; 五 "限制 10 秒内，不能有效出牌，判输一墩"
        return [Penalty(TRICK_TO_OPPONENTS)]
    if category == CARD_SHOWING:
        return [Penalty(ROUND_LOST)]
    if category == SPECTATOR_HINT:
        return [Penalty(ROUND_LOST), Penalty(RANKING_DROP, target="hinting_unit", places=1)]
    return []


def proposed_penalties(
    game: str,
    category: str,
    previous: int = 0,
    in_play_ladder: str | None = None,
    *,
    seconds: float | None = None,
    timed: str = "play",
    times=None,
) -> list[Penalty]:
    """What the ladder proposes for an incident: chengyu's fixed ladder (a slow play timed
    within the preset's ``times.play_normal``, 10 s, is no offence); an in-play ladder's
    ("national" or "suzhou", the preset's ``in_play_ladder``), where a slow play timed at
    ``seconds`` is judged by the preset's time limits ``times``
    (:func:`rules_engine.ladder_national.times_of`); late arrival is decided by
    :func:`late_forfeit`; otherwise nothing is fixed."""
    if game == "chengyu":
        limit = getattr(times, "play_normal", None)
        if category == SLOW_PLAY and seconds is not None and limit and seconds <= limit:
            return []
        return chengyu_penalties(category, previous)
    if in_play_ladder in ("national", "suzhou"):
        if category == SLOW_PLAY:
            return slow_play_proposal(seconds, timed, times, in_play_ladder, previous)
        return in_play_penalties(category, previous, in_play_ladder)
    return []


# --- settings --------------------------------------------------------------------------------

# The ladder's steps in words (the settings page's rows of the escalation; the words of
# arbitration.models.Step).
STEP_WORDS = {
    VERBAL_WARNING: gettext_noop("Verbal warning (口头警告)"),
    WARNING: gettext_noop("Warning (警告)"),
    VIOLATION: gettext_noop("Violation (记违例)"),
    LEVEL_DEDUCTION: gettext_noop("Level deduction (降级)"),
    MATCH_LOSS: gettext_noop("Match loss (判负)"),
    SUSPENSION: gettext_noop("Suspension (停赛)"),
}

DEFAULT_ESCALATION: dict[str, tuple[int, str]] = {
    WARNING: (2, VIOLATION),
    VIOLATION: (3, MATCH_LOSS),
    MATCH_LOSS: (2, SUSPENSION),
}


def _escalation(value: object, where: str = "settings.escalation") -> dict[str, tuple[int, str]]:
    if not isinstance(value, Mapping):
        raise RulesError(
            t(
                '{where} must map a step to [count, next step], e.g. {{"warning": [2, "violation"]}}',
                where=where,
            ),
            where,
        )
    rules = {}
    for step, rule in value.items():
        if step not in LADDER or not isinstance(rule, list | tuple) or len(rule) != 2:
            raise RulesError(
                t(
                    "{where}.{step} must be [count, next step] for a ladder step",
                    where=where,
                    step=step,
                ),
                where,
            )
        count, then = rule
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise RulesError(
                t("{where}.{step}: the count must be 1 or more", where=where, step=step), where
            )
        if then not in LADDER or LADDER.index(then) <= LADDER.index(step):
            raise RulesError(
                t(
                    "{where}.{step}: {then!r} must be a higher step of the ladder",
                    where=where,
                    step=step,
                    then=then,
                ),
                where,
            )
        rules[step] = (count, then)
    return rules


@dataclass(frozen=True)
class LadderSettings:
    """The ladder's settings; an event's values are checked against these types
    (:mod:`rules_engine.schema`)."""

    escalation: Mapping[str, tuple[int, str]] = setting(
        default_factory=lambda: dict(DEFAULT_ESCALATION),
        check=_escalation,
        keys=LADDER,
        key_words=STEP_WORDS,
        label=gettext_noop("penalty escalation"),
    )
    late_limit_minutes: int = setting(10, label=gettext_noop("late after (minutes)"))
    late_leave_limit_minutes: int = setting(
        15, label=gettext_noop("late with an approved leave after (minutes)")
    )
    appeal_minutes: int = setting(30, label=gettext_noop("appeal within (minutes)"))
    answer_minutes: int = setting(120, label=gettext_noop("committee answers within (minutes)"))
    answer_near_minutes: int = setting(30, label=gettext_noop("answer deadline warning (minutes)"))


SETTING_KEYS = tuple(f.name for f in fields(LadderSettings))

# Defaults per game (every game uses the seed's ladder; tractor and chengyu have no leave rule
# in their seeds, so the 15 minutes apply to them only when a leave was approved).
GAME_DEFAULTS: dict[str, dict] = {"guandan": {}, "tractor": {}, "chengyu": {}}


def ladder_settings(
    game: str, overrides: Mapping | None = None, prefix: str = "settings."
) -> LadderSettings:
    """The ladder settings of ``game`` with an event's overrides (keys of other areas
    are ignored; a bad value raises RulesError naming ``<prefix><key>``)."""
    values = dict(GAME_DEFAULTS.get(game, {})) | dict(overrides or {})
    return LadderSettings(**check_values(LadderSettings, values, prefix))


# --- escalation --------------------------------------------------------------------------------


def escalate(record: Iterable[str], step: str, settings: LadderSettings | None = None) -> list[str]:
    """The steps the new ``step`` sets off automatically, given the team's standing
    ``record`` (its earlier steps in this event, escalated ones included).

    >>> escalate(["warning"], "warning")
    ['violation']
    >>> escalate(["warning", "violation", "violation"], "warning")
    ['violation', 'match_loss']
    """
    rules = (settings or LadderSettings()).escalation
    counts = Counter(record)
    added = []
    current: str | None = step
    while current is not None:
        counts[current] += 1
        rule = rules.get(current)
        if rule is None or counts[current] % rule[0]:
            break
        current = rule[1]
        added.append(current)
    return added


# --- lateness ------------------------------------------------------------------------------------


def late_limit(leave_approved: bool, settings: LadderSettings | None = None) -> int:
    settings = settings or LadderSettings()
    return settings.late_leave_limit_minutes if leave_approved else settings.late_limit_minutes


def minutes_late(start: datetime, arrival: datetime) -> float:
    """Minutes between the round's start and the arrival (0 when early or on time)."""
    return max(0.0, (arrival - start).total_seconds() / 60)


def late_forfeit(
    late_minutes: float | None, leave_approved: bool = False, settings: LadderSettings | None = None
) -> bool:
    """The one lateness rule (seed 003 十三 第2、4条 "比赛宣布开始10分钟后…仍未…就位…作弃权论处";
    tractor "迟到10分钟视为弃权"): a team ``late_minutes`` late (None: never came) forfeits
    once the elapsed time reaches the limit, 10 minutes (``late_limit_minutes``) or 15 with a
    leave approved in advance (``late_leave_limit_minutes``): 9:59 is in time, 10:00 is late.
    ``late_minutes`` is the exact elapsed time (never rounded up or down before this test)."""
    if late_minutes is None:
        return True
    return late_minutes >= late_limit(leave_approved, settings)


def is_late(
    start: datetime,
    at: datetime | None,
    leave_approved: bool = False,
    settings: LadderSettings | None = None,
) -> bool:
    """:func:`late_forfeit` on the time elapsed from the round's ``start`` to ``at`` (an
    arrival, or now for a team still not seated): every path (the late list of a round, the
    late-arrival incident) asks this one function. ``at`` None: the team never came."""
    if at is None:
        return True
    return late_forfeit(minutes_late(start, at), leave_approved, settings)


# --- appeals ---------------------------------------------------------------------------------------

UPHOLD = "uphold"  # the ruling stands; the appeal is dismissed
OVERTURN = "overturn"  # the ruling and its effects are reversed
AMEND = "amend"  # the ruling is replaced by another step
VOTE_CHOICES = (UPHOLD, OVERTURN, AMEND)


def appeal_deadline(match_end: datetime, settings: LadderSettings | None = None) -> datetime:
    """The last moment to file an appeal: 30 minutes after the match ended (seed 003 十五)."""
    return match_end + timedelta(minutes=(settings or LadderSettings()).appeal_minutes)


def appeal_in_time(filed: datetime, match_end: datetime, settings=None) -> bool:
    return filed <= appeal_deadline(match_end, settings)


def answer_deadline(filed: datetime, settings: LadderSettings | None = None) -> datetime:
    """The committee must answer within 2 hours of the appeal."""
    return filed + timedelta(minutes=(settings or LadderSettings()).answer_minutes)


def deadline_state(deadline: datetime, now: datetime, settings=None) -> str:
    """ "past", "near" (under 30 minutes left) or "ok"."""
    if now > deadline:
        return "past"
    near = timedelta(minutes=(settings or LadderSettings()).answer_near_minutes)
    return "near" if deadline - now < near else "ok"


@dataclass(frozen=True)
class Decision:
    choice: str
    amended_step: str | None
    votes: int
    members: int


def majority_decision(votes: Iterable[tuple[str, str | None]], members: int) -> Decision | None:
    """The committee's decision by simple majority (少数服从多数): a choice (with the same
    amended step, for an amendment) backed by more than half of the ``members``; None
    while no choice has a majority."""
    if isinstance(members, bool) or not isinstance(members, int) or members < 1:
        raise RulesError(t("the committee needs at least one member"), "members")
    tally = Counter()
    for choice, amended in votes:
        if choice not in VOTE_CHOICES:
            raise RulesError(
                t(
                    "a vote must be one of {choices}, not {choice!r}",
                    choices=", ".join(VOTE_CHOICES),
                    choice=choice,
                ),
                "choice",
            )
        tally[(choice, amended if choice == AMEND else None)] += 1
    if sum(tally.values()) > members:
        raise RulesError(
            t(
                "{total} votes for {members} committee members",
                total=sum(tally.values()),
                members=members,
            ),
            "votes",
        )
    for (choice, amended), count in tally.most_common():
        if count * 2 > members:
            return Decision(choice, amended, count, members)
    return None
