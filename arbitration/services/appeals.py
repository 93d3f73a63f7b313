"""Appeals (申诉): filed in writing by a captain of a team involved, within 30 minutes of the
end of the match; decided by the committee's simple majority, answered within 2 hours.

When the match ended: the moment its first result version was stored (the table's result
came in), else the round's ``ends_at``; and never before the ruling itself, so that a
ruling made after the match can still be appealed for 30 minutes.
"""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from arbitration.models import Appeal, AppealDecision, Ruling, Vote
from rules_engine import ladder
from tournaments import glossary, permissions
from tournaments.errors import Code
from tournaments.freshness import revision_batch
from tournaments.models import ResultVersion
from tournaments.services.audit import log_action

from . import ArbitrationError, ArbitrationForbidden
from .common import committee_size, require_chief, require_reason, settings_of
from .rulings import check_step, create, revoke, scored_last_deal


def match_end(ruling: Ruling) -> datetime:
    times = [ruling.created_at]
    if ruling.match_id:
        first = (
            ResultVersion.objects.filter(match=ruling.match_id)
            .exclude(source__startswith="arbitration")
            .order_by("number")
            .values_list("created_at", flat=True)
            .first()
        )
        ended = first or ruling.match.round.ends_at
        if ended is not None:
            times.append(ended)
    return max(times)


def involved_teams(ruling: Ruling) -> set[int]:
    teams = {ruling.team_id}
    if ruling.match_id:
        teams |= {ruling.match.home_id, ruling.match.away_id} - {None}
    return teams


def deadline(appeal: Appeal) -> datetime:
    return ladder.appeal_deadline(appeal.match_ended_at, settings_of(appeal.event))


def appeal_minutes(event) -> int:
    """The event's time to appeal after the end of the match (its ``appeal_minutes``)."""
    return settings_of(event).appeal_minutes


def filing_deadline(ruling: Ruling) -> datetime:
    """By when an appeal against ``ruling`` filed now must be in (its page counts down)."""
    return ladder.appeal_deadline(match_end(ruling), settings_of(ruling.event))


def answer_deadline(appeal: Appeal) -> datetime:
    """Two hours from the appeal (from its acceptance, for a late one accepted)."""
    start = appeal.late_accepted_at or appeal.filed_at
    return ladder.answer_deadline(start, settings_of(appeal.event))


def answer_state(appeal: Appeal, now: datetime | None = None) -> str:
    """ "decided", "refused", or the deadline's "ok" / "near" / "past"."""
    if appeal.status != "open":
        return appeal.status
    return ladder.deadline_state(
        answer_deadline(appeal), now or timezone.now(), settings_of(appeal.event)
    )


def file_appeal(ruling: Ruling, user, grounds: str, source: str = "") -> Appeal:
    """File an appeal; a late one is stored refused (see ``refusal``) for the chief referee
    to accept or not."""
    event = ruling.event
    permissions.require(user, event, "appeal.file", ArbitrationForbidden)
    mine = permissions.captain_team_ids(user, event) & involved_teams(ruling)
    if not mine:
        raise ArbitrationForbidden(
            _("Only the captain of a team involved may appeal against this ruling.")
        )
    if not (grounds or "").strip():
        raise ArbitrationError(_("Write the grounds of the appeal."), "grounds")
    if not ruling.is_active:
        raise ArbitrationError(
            _("This ruling has been revoked: there is nothing to appeal."), "ruling"
        )
    team_id = ruling.team_id if ruling.team_id in mine else min(mine)
    if Appeal.objects.filter(ruling=ruling, team_id=team_id).exists():
        raise ArbitrationError(
            _("Your team has already appealed against this ruling."), "ruling", Code.CONFLICT
        )
    now = timezone.now()
    ended = match_end(ruling)
    late = not ladder.appeal_in_time(now, ended, settings_of(event))
    with transaction.atomic():
        appeal = Appeal.objects.create(
            event=event,
            ruling=ruling,
            team_id=team_id,
            grounds=grounds.strip(),
            filed_by=user,
            filed_at=now,
            match_ended_at=ended,
            late=late,
            source=source[:120],
        )
        log_action(
            event,
            user,
            "appeal.file",
            appeal,
            data={"ruling": ruling.pk, "late": late, "match_ended_at": str(ended)},
            reason=appeal.grounds,
            source=source,
        )
    return appeal


def refusal(appeal: Appeal) -> str:
    """Why a late appeal is refused ("" when it is not)."""
    if not appeal.refused:
        return ""
    return gettext(
        "Refused: an appeal must be filed within %(minutes)s minutes of the end of the match "
        "(by %(deadline)s); it was filed at %(filed)s. The chief referee may still accept it."
    ) % {
        "minutes": appeal_minutes(appeal.event),
        "deadline": timezone.localtime(deadline(appeal)).strftime("%H:%M"),
        "filed": timezone.localtime(appeal.filed_at).strftime("%H:%M"),
    }


def accept_late(appeal: Appeal, user, reason: str, source: str = "") -> Appeal:
    require_chief(user, appeal.event, "appeal.accept_late", _("accept a late appeal"))
    reason = require_reason(reason)
    if not appeal.refused:
        raise ArbitrationError(
            _("This appeal is not a refused late appeal."), "appeal", Code.CONFLICT
        )
    with transaction.atomic():
        appeal.late_accepted_at = timezone.now()
        appeal.late_accepted_by = user
        appeal.late_accepted_reason = reason
        appeal.save(update_fields=["late_accepted_at", "late_accepted_by", "late_accepted_reason"])
        log_action(appeal.event, user, "appeal.accept_late", appeal, reason=reason, source=source)
    return appeal


def vote(
    appeal: Appeal, user, choice: str, reason: str, amended_step: str = "", source: str = ""
) -> Vote:
    """A committee member's vote; the decision is taken (and carried out) as soon as one
    choice has a majority of the whole committee."""
    event = appeal.event
    permissions.require(user, event, "appeal.vote", ArbitrationForbidden)
    reason = require_reason(reason)
    if choice not in ladder.VOTE_CHOICES:
        raise ArbitrationError(_("Vote uphold, overturn or amend."), "choice")
    amended_step = amended_step or ""
    if choice == ladder.AMEND:
        check_step(event, amended_step, "amended_step")
        if amended_step == appeal.ruling.step:
            raise ArbitrationError(_("An amendment names a different penalty."), "amended_step")
        if amended_step == ladder.SCORED_LAST:
            ruling = appeal.ruling
            scored_last_deal(ruling.incident, ruling.team, ruling.deal, "amended_step")
    else:
        amended_step = ""
    if appeal.status != "open":
        raise ArbitrationError(
            _("This appeal is not open for votes (%(status)s)."),
            "appeal",
            status=appeal.status,
        )
    try:
        with revision_batch():
            lock_open(appeal)
            cast = Vote.objects.create(
                appeal=appeal, member=user, choice=choice, amended_step=amended_step, reason=reason
            )
            log_action(
                event,
                user,
                "appeal.vote",
                appeal,
                data={"choice": choice, "amended_step": amended_step},
                reason=reason,
                source=source,
            )
            _decide_if_majority(appeal, user, source)
    except IntegrityError:
        raise ArbitrationError(_("You have already voted on this appeal."), "appeal") from None
    return cast


class DecidedMeanwhile(ArbitrationError):
    """Another member's vote decided the appeal while this one was being cast."""

    code = Code.DECIDED_MEANWHILE


def lock_open(appeal: Appeal) -> None:
    """Inside the vote's transaction: lock the appeal row, so that votes are counted one at a
    time, and refuse a vote on an appeal decided meanwhile (by the vote that held the lock)."""
    Appeal.objects.select_for_update().filter(pk=appeal.pk).first()
    decision = AppealDecision.objects.filter(appeal_id=appeal.pk).first()
    if decision is not None:
        raise DecidedMeanwhile(
            _(
                "The appeal was decided meanwhile (%(choice)s, %(votes)s of %(members)s votes); "
                "your vote was not recorded."
            ),
            "appeal",
            choice=decision.get_choice_display(),
            votes=decision.votes,
            members=decision.members,
        )


def _decide_if_majority(appeal: Appeal, user, source: str) -> AppealDecision | None:
    votes = appeal.votes.values_list("choice", "amended_step")
    decision = ladder.majority_decision(
        [(c, s or None) for c, s in votes], max(committee_size(appeal.event), 1)
    )
    if decision is None:
        return None
    record = AppealDecision.objects.create(
        appeal=appeal,
        choice=decision.choice,
        amended_step=decision.amended_step or "",
        votes=decision.votes,
        members=decision.members,
    )
    ruling = appeal.ruling
    why = gettext(
        "Appeal #%(n)s: the committee's decision: %(choice)s (%(votes)s of %(members)s)."
    ) % {
        "n": appeal.pk,
        "choice": glossary.word(glossary.DECISIONS, decision.choice),
        "votes": decision.votes,
        "members": decision.members,
    }
    if decision.choice in (ladder.OVERTURN, ladder.AMEND) and ruling.is_active:
        revoke(ruling, user, why, appeal=appeal, source=source)
    if decision.choice == ladder.AMEND:
        fields = {
            "levels": ruling.levels,
            "opponent_up": ruling.opponent_up,
            "deal": ruling.deal,
            "places": ruling.places,
            "in_play_steps": []
            if decision.amended_step == ladder.NO_PENALTY
            else ruling.in_play_steps,
        }
        made = create(
            appeal.event,
            ruling.incident,
            ruling.team,
            decision.amended_step,
            why,
            user,
            fields,
            source,
            amends=ruling,
        )
        record.new_ruling = made[0]
        record.save(update_fields=["new_ruling"])
    log_action(
        appeal.event,
        user,
        "appeal.decide",
        appeal,
        data={
            "choice": decision.choice,
            "amended_step": decision.amended_step,
            "votes": decision.votes,
            "members": decision.members,
        },
        reason=why,
        source=source,
    )
    return record
