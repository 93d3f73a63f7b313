"""Ranking adjustments (a team moved down the final standings), e.g. by an arbitration ruling.
Not the record adjustments of rules_engine/adjustments.py (a ruling's effect on a match record,
the record's ``"adjustments"``): here a row of RankingAdjustment, a *drop* in code.

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
        drop = RankingAdjustment.objects.create(
            event=team.event,
            team=team,
            unit=team.unit if unit else None,
            places=places,
            reason=reason,
            source=source[:80],
            created_by=user,
        )
        log_action(
            team.event,
            user,
            "ranking.adjust",
            drop,
            data={
                "team": team.pk,
                "places": places,
                "source": source,
                "unit": team.unit.name if unit and team.unit else None,
            },
            reason=reason,
        )
    return drop


def cancel_ranking_adjustment(drop: RankingAdjustment, user, reason: str):
    """Cancel a ranking drop (the only change a row ever gets); a cancelled one stays."""
    if drop.cancelled_at is not None:
        return drop
    with transaction.atomic():
        drop.cancelled_at = timezone.now()
        drop.cancelled_reason = reason
        drop.save(update_fields=["cancelled_at", "cancelled_reason"])
        log_action(
            drop.event,
            user,
            "ranking.cancel",
            drop,
            data={"team": drop.team_id, "places": drop.places},
            reason=reason,
        )
    return drop
