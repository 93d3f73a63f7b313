"""Late arrival: the arrival time against the round's start; from the limit on the system
proposes the forfeit, which the chief referee confirms (a ``forfeit`` ruling).

The rule is the engine's one lateness rule (``rules_engine.ladder.is_late``), the same the
round's late list asks (``tournaments.services.checkin.late_teams``): elapsed time ≥ the
preset's ``late_limit_minutes`` (15 with a leave, ``late_leave_limit_minutes``)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from arbitration.models import Incident
from arbitration.models.incidents import Category
from rules_engine import ladder

from .common import settings_of


@dataclass(frozen=True)
class LateStatus:
    minutes_late: float | None  # tenths, cut; None: the arrival or the round's start unknown
    limit: int
    forfeit: bool
    confirmed: bool

    @property
    def whole_minutes(self) -> int | None:
        """Whole minutes late, as a clock shows them: 9:59 is 9, 10:30 is 10 (the rule reads
        the exact time, never this)."""
        return None if self.minutes_late is None else math.floor(self.minutes_late)


def late_status(incident: Incident) -> LateStatus | None:
    """None unless the incident is a late arrival."""
    if incident.category != Category.LATE_ARRIVAL:
        return None
    settings = settings_of(incident.event)
    limit = ladder.late_limit(incident.leave_approved, settings)
    start = incident.match.round.started_at if incident.match_id else None
    minutes = forfeit = None
    if start is not None and incident.arrived_at is not None:
        # tenths of a minute, cut (never rounded up: 9:59 shows 9.9, not the limit's 10.0)
        minutes = math.floor(ladder.minutes_late(start, incident.arrived_at) * 10) / 10
        forfeit = ladder.is_late(start, incident.arrived_at, incident.leave_approved, settings)
    forfeit = bool(forfeit)
    confirmed = incident.rulings.filter(step=ladder.FORFEIT, revocation__isnull=True).exists()
    return LateStatus(minutes, limit, forfeit, confirmed)


def pending_forfeits(event) -> list[tuple[Incident, LateStatus]]:
    """Late arrivals past the limit on which the chief referee has not ruled yet."""
    pending = []
    incidents = (
        Incident.objects.filter(event=event, category=Category.LATE_ARRIVAL, rulings__isnull=True)
        .select_related("match__round", "team", "event")
        .order_by("created_at")
    )
    for incident in incidents:
        status = late_status(incident)
        if status and status.forfeit:
            pending.append((incident, status))
    return pending
