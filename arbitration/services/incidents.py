"""Logging incidents at a table, and attaching rules desk rulings to them as evidence."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from arbitration.models import Evidence, Incident
from arbitration.models.incidents import (
    MAX_SECONDS,
    Category,
    Timed,
    offers_category,
    offers_national,
)
from rules_engine.adjustments import SEAT_SIDES
from tournaments import permissions
from tournaments.models import Event, Match, Player, Team
from tournaments.services.audit import log_action
from tournaments.validation import SMALLINT_MAX, BadInput, bounded_int

from . import ArbitrationError, ArbitrationForbidden
from .common import side_of


def can_log(user, event: Event, match: Match | None) -> bool:
    """The chief referee anywhere; a table referee at the tables assigned to them."""
    return permissions.may(user, event, "incident.log") and permissions.can_write_table(
        user, event, match.table_number if match else None
    )


def log_incident(
    event: Event,
    user,
    *,
    category: str,
    description: str,
    match: Match | None = None,
    team: Team | None = None,
    player: Player | None = None,
    reported_by: str = "",
    arrived_at=None,
    leave_approved: bool = False,
    seconds: int | None = None,
    timed: str = Timed.PLAY,
    deal: int | None = None,
    seat: str = "",
    source: str = "",
) -> Incident:
    if not can_log(user, event, match):
        raise ArbitrationForbidden(_("You may not log incidents at this table."))
    if category not in Category.values:
        raise ArbitrationError(_("Choose a category of the list."), "category")
    preset = event.get_preset()
    if not offers_category(preset, category):
        if category == Category.MISPLAYED_COMBINATION or preset.game != "guandan":
            message = _(
                "“%(category)s” is an incident of the national rules only: this event's "
                "scoring preset does not use the national in-play penalty ladder."
            )
        else:
            message = _(
                "“%(category)s” is an incident of the Guandan rules (national or "
                "Suzhou): this event's scoring preset has no in-play penalty ladder."
            )
        raise ArbitrationError(message, "category", category=Category(category).label)
    if not (description or "").strip():
        raise ArbitrationError(_("Say what happened."), "description")
    _check_parties(event, match, team, player)
    if seconds is not None and (
        isinstance(seconds, bool) or not isinstance(seconds, int) or not 0 <= seconds <= MAX_SECONDS
    ):
        raise ArbitrationError(_("Seconds taken: a whole number of seconds, 0 or more."), "seconds")
    if timed not in Timed.values:
        raise ArbitrationError(
            _("Choose what was timed: a play, a tribute or its return."), "timed"
        )
    if category == Category.LATE_ARRIVAL and (match is None or team is None):
        raise ArbitrationError(_("A late arrival names the match and the late team."), "team")
    deal, seat = _check_deal_and_seat(category, match, team, deal, seat, offers_national(preset))
    with transaction.atomic():
        incident = Incident.objects.create(
            event=event,
            match=match,
            team=team,
            player=player,
            category=category,
            description=description.strip(),
            reported_by=(reported_by or "").strip()[:200],
            arrived_at=arrived_at,
            leave_approved=bool(leave_approved),
            seconds=seconds,
            timed=timed,
            deal=deal,
            seat=seat,
            logged_by=user,
            source=source[:120],
        )
        log_action(
            event,
            user,
            "incident.log",
            incident,
            data={
                "category": category,
                "match": match and match.pk,
                "team": team and team.pk,
                "arrived_at": arrived_at and str(arrived_at),
                "seconds": seconds,
                "timed": timed,
                "deal": deal,
                "seat": seat,
            },
            reason=incident.description,
            source=source,
        )
    return incident


def _check_deal_and_seat(
    category, match, team, deal, seat, scored_last: bool = True
) -> tuple[int | None, str]:
    """A deal number (1 for the first) and a seat of the team concerned, both needed by a
    wrong tribute under the national ladder (``scored_last``: the ruling scores that seat
    last in that deal); under Suzhou's the tribute is given again (五(五) 重新给牌), so the
    match and the team are enough."""
    try:
        deal = bounded_int(deal, "deal", 1, SMALLINT_MAX)
    except BadInput:
        raise ArbitrationError(
            _("Deal: the number of the deal, 1 for the first."), "deal"
        ) from None
    seat = seat or ""
    if seat and seat not in SEAT_SIDES:
        raise ArbitrationError(_("Seat: East, South, West or North."), "seat")
    if category == Category.WRONG_TRIBUTE:
        if match is None or team is None:
            raise ArbitrationError(
                _("A wrong tribute names the match and the offending team."), "team"
            )
        if deal is None and scored_last:
            raise ArbitrationError(
                _("A wrong tribute names the deal it was found in (1 for the first)."), "deal"
            )
        if not seat and scored_last:
            raise ArbitrationError(_("A wrong tribute names the offender's seat."), "seat")
    if seat and match is not None and team is not None:
        if SEAT_SIDES[seat] != side_of(team, match):
            raise ArbitrationError(
                _("That seat is not one of %(team)s's seats in this match."),
                "seat",
                team=team.name,
            )
    return deal, seat


def _check_parties(event, match, team, player) -> None:
    if match is not None and match.round.event_id != event.pk:
        raise ArbitrationError(_("That match is not in this event."), "match")
    if team is not None:
        if team.event_id != event.pk:
            raise ArbitrationError(_("That team is not in this event."), "team")
        if match is not None and team.pk not in (match.home_id, match.away_id):
            raise ArbitrationError(_("That team does not play in this match."), "team")
    if player is not None and (team is None or player.team_id != team.pk):
        raise ArbitrationError(_("That player is not in the team named."), "player")


def attach_evidence(incident: Incident, user, action: str, request: dict, answer: dict) -> Evidence:
    """Attach a rules desk request and the engine's answer to ``incident``."""
    if not can_log(user, incident.event, incident.match):
        raise ArbitrationForbidden(_("You may not add evidence to this incident."))
    with transaction.atomic():
        evidence = Evidence.objects.create(
            incident=incident, action=action, request=request, answer=answer, created_by=user
        )
        log_action(
            incident.event,
            user,
            "incident.evidence",
            incident,
            data={"evidence": evidence.pk, "action": action},
        )
    return evidence
