"""The discipline ladder's vocabulary (SPEC 5): its steps, the incident categories and a
proposed :class:`Penalty`. Its own module so that the general ladder (:mod:`rules_engine.ladder`)
and the in-play ladders (:mod:`rules_engine.ladder_national`) both build on it and neither
imports the other back (tests/test_architecture.py: no import cycles)."""

from __future__ import annotations

from dataclasses import dataclass

from rules_engine.errors import RulesError
from rules_engine.i18n import t

# --- the ladder ------------------------------------------------------------------------

VERBAL_WARNING = "verbal_warning"
WARNING = "warning"
VIOLATION = "violation"
LEVEL_DEDUCTION = "level_deduction"
MATCH_LOSS = "match_loss"
SUSPENSION = "suspension"
TRICK_TO_OPPONENTS = "trick_to_opponents"
ROUND_LOST = "round_lost"
RANKING_DROP = "ranking_drop"
FORFEIT = "forfeit"  # late arrival: the match is forfeited (not a step of the ladder)
NO_PENALTY = "no_penalty"  # the incident is dismissed
# A wrong tribute found after play began (national text, guandan): the offender is scored
# last (下游) in that deal; a step of the national in-play ladder that changes the result.
SCORED_LAST = "scored_last"

LADDER = (VERBAL_WARNING, WARNING, VIOLATION, LEVEL_DEDUCTION, MATCH_LOSS, SUSPENSION)
CHENGYU_STEPS = (TRICK_TO_OPPONENTS, ROUND_LOST, RANKING_DROP)
NATIONAL_ONLY_STEPS = (SCORED_LAST,)
STEPS = (NO_PENALTY, *LADDER, *CHENGYU_STEPS, FORFEIT, *NATIONAL_ONLY_STEPS)

# Which steps change something beyond the record of the ruling.
RESULT_STEPS = (LEVEL_DEDUCTION, MATCH_LOSS, TRICK_TO_OPPONENTS, ROUND_LOST, FORFEIT, SCORED_LAST)
LEVEL_GAMES = ("guandan", "tractor")


def steps_for(game: str, in_play_ladder: str | None = None) -> tuple[str, ...]:
    """The steps a chief referee may rule in ``game`` (levels only where the game has them;
    "scored last" only in guandan under the national in-play ladder)."""
    national = game == "guandan" and in_play_ladder == "national"
    steps = tuple(s for s in STEPS if national or s not in NATIONAL_ONLY_STEPS)
    if game == "chengyu":
        return tuple(s for s in steps if s != LEVEL_DEDUCTION)
    return tuple(s for s in steps if s not in CHENGYU_STEPS or s == RANKING_DROP)


def check_step(
    step: object, game: str, field: str = "step", in_play_ladder: str | None = None
) -> str:
    allowed = steps_for(game, in_play_ladder)
    if step not in allowed:
        raise RulesError(
            t(
                "{field} must be one of {allowed} in {game}, not {step!r}",
                field=field,
                allowed=", ".join(allowed),
                game=game,
                step=step,
            ),
            field,
        )
    return step


# --- incident categories -------------------------------------------------------------------

SIGNALLING = "signalling"  # signalling / talking
WRONG_CARD = "wrong_card"  # wrong or exposed card
OUT_OF_TURN = "out_of_turn"
LATE_ARRIVAL = "late_arrival"
SLOW_PLAY = "slow_play"
MISSED_COMPULSORY = "missed_compulsory"  # 必出
CARD_SHOWING = "card_showing"
SPECTATOR_HINT = "spectator_hint"
CHANGED_PLAY = "changed_play"
OTHER = "other"

CATEGORIES = (
    SIGNALLING,
    WRONG_CARD,
    OUT_OF_TURN,
    LATE_ARRIVAL,
    SLOW_PLAY,
    MISSED_COMPULSORY,
    CARD_SHOWING,
    SPECTATOR_HINT,
    CHANGED_PLAY,
    OTHER,
)


@dataclass(frozen=True)
class Penalty:
    """One penalty the ladder proposes: ``step`` for ``target`` ("offender" or "hinting_unit")."""

    step: str
    target: str = "offender"
    places: int = 0

    def as_dict(self) -> dict:
        return {"step": self.step, "target": self.target, "places": self.places}
