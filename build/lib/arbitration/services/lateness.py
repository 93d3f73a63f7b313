"""Late arrival: the arrival time against the round's start; past the limit the system
proposes the forfeit, which the chief referee confirms (a ``forfeit`` ruling)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from arbitration.models import Incident
from arbitration.models.incidents import Category
from rules_engine import ladder

from .common import settings_of


@dataclass(frozen=True)
class LateStatus:
    minutes_late: float | None  # None: the arrival time or the round's start is unknown
    limit: int
    forfeit: bool
    confirmed: bool

    @property
    def whole_minutes(self) -> int | None:
        """Minutes late as a referee says them: every started minute counts (11.5 → 12)."""
        return None if self.minutes_late is None else math.ceil(self.minutes_late)


def late_status(incident: Incident) -> LateStatus | None:
    """None unless the incident is a late arrival."""
    if incident.category != Category.LATE_ARRIVAL:
        return None
    settings = settings_of(incident.tournament)
    limit = ladder.late_limit(incident.leave_approved, settings)
    start = incident.match.round.started_at if incident.match_id else None
    minutes = None
    if start is not None and incident.arrived_at is not None:
        minutes = round(ladder.minutes_late(start, incident.arrived_at), 1)
    forfeit = minutes is not None and ladder.late_forfeit(minutes, incident.leave_approved,
                                                          settings)  # fmt: skip
    confirmed = incident.rulings.filter(step=ladder.FORFEIT, revocation__isnull=True).exists()
    return LateStatus(minutes, limit, forfeit, confirmed)


def pending_forfeits(tournament) -> list[tuple[Incident, LateStatus]]:
    """Late arrivals past the limit on which the chief referee has not ruled yet."""
    pending = []
    incidents = (
        Incident.objects.filter(
            tournament=tournament, category=Category.LATE_ARRIVAL, rulings__isnull=True
        )  # fmt: skip
        .select_related("match__round", "team", "tournament")
        .order_by("created_at")
    )
    for incident in incidents:
        status = late_status(incident)
        if status and status.forfeit:
            pending.append((incident, status))
    return pending
