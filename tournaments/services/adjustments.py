"""Ranking adjustments (a team moved down the final standings), e.g. by an arbitration ruling.

Rows are never deleted: cancelling one sets ``cancelled_at`` and ``cancelled_reason`` once,
logged. Standings follow at once (the standings revision is bumped).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments.models import RankingAdjustment, Team

from .audit import log_action


def add_ranking_adjustment(
    team: Team, places: int, user, reason: str, source: str = "", unit: bool = False
):
    """Move ``team`` ``places`` down in the ranking (source e.g. "arbitration.ruling:12");
    ``unit``: move the team's unit down in the unit standings instead."""
    with transaction.atomic():
        adjustment = RankingAdjustment.objects.create(
            tournament=team.tournament,
            team=team,
            unit=team.unit if unit else None,
            places=places,
            reason=reason,
            source=source[:80],
            created_by=user,
        )
        log_action(
            team.tournament,
            user,
            "ranking.adjust",
            adjustment,
            data={
                "team": team.pk,
                "places": places,
                "source": source,
                "unit": team.unit.name if unit and team.unit else None,
            },
            reason=reason,
        )
    return adjustment


def cancel_ranking_adjustment(adjustment: RankingAdjustment, user, reason: str):
    """Cancel an adjustment (the only change a row ever gets); a cancelled one stays."""
    if adjustment.cancelled_at is not None:
        return adjustment
    with transaction.atomic():
        adjustment.cancelled_at = timezone.now()
        adjustment.cancelled_reason = reason
        adjustment.save(update_fields=["cancelled_at", "cancelled_reason"])
        log_action(
            adjustment.tournament,
            user,
            "ranking.cancel",
            adjustment,
            data={"team": adjustment.team_id, "places": adjustment.places},
            reason=reason,
        )
    return adjustment
