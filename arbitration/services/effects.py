"""What a ruling changes, and how that is undone: results through the rules engine (new
result versions, nothing overwritten), suspensions through the team's status, ranking
drops through ranking adjustments. Standings follow at once (every write moves the event's revision: tournaments.freshness).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from arbitration.models import Ruling
from rules_engine import adjustments, ladder
from rules_engine.errors import RulesError
from rules_engine.presets import forfeit_record
from tournaments.errors import Code
from tournaments.models import ResultVersion, Team
from tournaments.services import result_effects, results
from tournaments.services.ranking_adjustments import (
    add_ranking_adjustment,
    cancel_ranking_adjustment,
)
from tournaments.services.registration import set_team_status

from . import ArbitrationError
from .common import side_of

RESULT_TYPES = {
    ladder.MATCH_LOSS: "match_loss",
    ladder.FORFEIT: "match_loss",
    ladder.TRICK_TO_OPPONENTS: "trick_to_opponents",
    ladder.ROUND_LOST: "round_lost",
}


def source_ref(ruling: Ruling) -> str:
    return f"arbitration.ruling:{ruling.pk}"


def adjustment_of(ruling: Ruling) -> dict:
    """The record adjustment a result-changing ruling stands for."""
    side = side_of(ruling.team, ruling.match)
    if ruling.step == ladder.LEVEL_DEDUCTION:
        kind = "opponent_level_up" if ruling.opponent_up else "level_deduction"
        return {"type": kind, "side": side, "levels": ruling.levels, "ruling": ruling.pk}
    if ruling.step == ladder.SCORED_LAST:  # the wrong tribute's seat is last in its deal
        return {
            "type": adjustments.WRONG_TRIBUTE,
            "side": side,
            "seat": ruling.incident.seat,
            "deal": ruling.deal,
            "ruling": ruling.pk,
        }
    adjustment = {"type": RESULT_TYPES[ruling.step], "side": side, "ruling": ruling.pk}
    if ruling.deal:
        adjustment["deal"] = ruling.deal
    return adjustment


def apply(ruling: Ruling, user, source: str = "") -> dict:
    """Carry out ``ruling``'s effect; returns what was done (stored on the ruling)."""
    if ruling.step in ladder.RESULT_STEPS:
        return _apply_result(ruling, user, source)
    if ruling.step == ladder.SUSPENSION:
        before = ruling.team.status
        set_team_status(ruling.team, Team.Status.SUSPENDED, user, ruling.reason)
        return {"type": "suspension", "status_before": before}
    if ruling.step == ladder.RANKING_DROP:
        # the idiom-chain hint (seed 000): the hinting unit drops in the unit standings
        unit = ruling.event.game == "chengyu" and ruling.team.unit_id is not None
        drop = add_ranking_adjustment(
            ruling.team, ruling.places or 1, user, ruling.reason, source_ref(ruling), unit=unit
        )
        ruling.ranking_adjustment = drop
        return {"type": "ranking_drop", "places": drop.places, "unit": unit}
    return {}


def _apply_result(ruling: Ruling, user, source: str) -> dict:
    match = ruling.match
    if match is None:
        raise ArbitrationError(_("This penalty changes a match result: name the match."), "match")
    adjustment = adjustment_of(ruling)
    counting = results.counting_version(match)
    if counting is None:
        if adjustment["type"] != "match_loss":
            raise ArbitrationError(  # the match's present state refuses it (409)
                _("The match has no counting result yet: enter and confirm it first."),
                "match",
                Code.CONFLICT,
            )
        game = match.round.event.game
        if ruling.step == ladder.FORFEIT:  # late arrival: the team did not play (弃权)
            record = forfeit_record(game, adjustment["side"])
        else:  # a penalty match loss (判负): scored like a forfeit, never called one
            # no deal was recorded: a deal the ruling names is where the offence was, not one
            # of the record's (the record has none to check it against)
            scored = {key: value for key, value in adjustment.items() if key != "deal"}
            record = adjustments.add_adjustment({"game": game, "deals": []}, scored)
        base = None
    else:
        _check_deal(adjustment, counting.record)
        try:
            record = adjustments.add_adjustment(counting.record, adjustment)
        except RulesError as err:
            raise ArbitrationError.from_rules(err) from None
        base = counting.number
    version = _submit(match, record, user, ruling.reason, source_ref(ruling), source)
    ruling.result_version = version
    return {
        "type": "result",
        "adjustment": adjustment,
        "base_version": base,
        "version": version.number,
    }


def _check_deal(adjustment: dict, record: dict) -> None:
    """A ruling naming a deal (a wrong tribute's, a trick or a round lost) names one of the
    counting result's deals: refused, never applied as if it named none."""
    if adjustment.get("deal") is None or not isinstance(record.get("deals"), list):
        return
    count = len(record["deals"])
    if not isinstance(adjustment["deal"], int) or adjustment["deal"] > count:
        raise ArbitrationError(
            _(
                "The counting result has no deal %(n)s (it holds %(count)s): name a deal that "
                "was played."
            ),
            "deal",
            n=adjustment["deal"],
            count=count,
        )


def _submit(match, record, user, reason, ref, source) -> ResultVersion:
    """A ruling version; the results service's refusal (a ResultError) is the ruling's."""
    return result_effects.submit_ruling_version(match, record, user, reason, ref, source)


def reverse(ruling: Ruling, user, reason: str, source: str = "") -> ResultVersion | None:
    """Undo ``ruling``'s effect; returns the result version that restores the result, if any."""
    effect = ruling.effect or {}
    if effect.get("type") == "result":
        return _reverse_result(ruling, user, reason, source)
    if effect.get("type") == "suspension" and ruling.team.status == Team.Status.SUSPENDED:
        set_team_status(
            ruling.team, effect.get("status_before") or Team.Status.ACTIVE, user, reason
        )
    if effect.get("type") == "ranking_drop" and ruling.ranking_adjustment_id:
        cancel_ranking_adjustment(ruling.ranking_adjustment, user, reason)
    return None


def _reverse_result(ruling: Ruling, user, reason: str, source: str) -> ResultVersion | None:
    match = ruling.match
    counting = results.counting_version(match)
    if counting is None:
        return None
    ref = f"{source_ref(ruling)}:revoked"
    if ruling.effect.get("base_version") is None and counting.pk == ruling.result_version_id:
        # the ruling's forfeit was the match's only result: it stops counting (a void)
        return _void(match, user, reason, ref)
    record = adjustments.remove_adjustments(counting.record, ruling.pk)
    if record == counting.record:
        return None
    return _submit(match, record, user, reason, ref, source)


def _void(match, user, reason: str, ref: str) -> ResultVersion:
    """A ruling version that voids the match (no result counts: to be played or entered again)."""
    return result_effects.void_by_ruling(match, user, reason, ref)
