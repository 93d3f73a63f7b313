"""What arbitration adds to the roles' homes (tournaments.services.homes panels): on the
chief's desk the open incidents and the appeals in progress; on a captain's home the rulings
against the captain's team, each with its appeal button and the filing deadline."""

from __future__ import annotations

from django.utils import timezone

from arbitration.models import Ruling
from tournaments import permissions
from tournaments.models import Event
from tournaments.services import homes

from .appeals import filing_deadline
from .dashboards import appeal_rows, appeals_qs, open_incidents, rulings_qs


def chief_panel(event: Event, user) -> homes.Panel | None:
    if not permissions.may(user, event, "incident.view"):
        return None
    incidents = open_incidents(event)
    appeals = appeal_rows([a for a in appeals_qs(event) if a.status != "decided"])
    return homes.Panel(
        "arbitration",
        "arbitration/homes/_chief.html",
        {"incidents": incidents, "appeals": appeals},
        {"incidents": len(incidents), "appeals": len(appeals)},
    )


def team_rulings(event: Event, team_ids, now=None) -> list[dict]:
    """The rulings against ``team_ids`` (newest first), each with its appeal state: the
    team's appeal if filed, else whether an appeal may still be filed and by when."""
    now = now or timezone.now()
    rows = []
    rulings = (
        rulings_qs(event)
        .filter(team_id__in=team_ids)
        .select_related("match__home", "match__away", "event")
        .prefetch_related("appeals")
        .order_by("-created_at")
    )
    for ruling in rulings:
        filed = [a for a in ruling.appeals.all() if a.team_id in team_ids]
        deadline = filing_deadline(ruling) if not filed and not ruling.revoked else None
        rows.append(
            {
                "ruling": ruling,
                "appeal": filed[-1] if filed else None,
                "deadline": deadline,
                "in_time": deadline is not None and now <= deadline,
            }
        )
    return rows


def captain_panel(event: Event, user) -> homes.Panel | None:
    ids = permissions.captain_team_ids(user, event)
    if not ids:
        return None
    rows = team_rulings(event, ids)
    open_rows = sum(1 for row in rows if row["deadline"] is not None and row["in_time"])
    return homes.Panel(
        "rulings",
        "arbitration/homes/_captain.html",
        {"rows": rows, "teams": sorted(ids)},
        {"appealable": open_rows},
    )


def register() -> None:
    homes.register_panel("chief", "arbitration", chief_panel)
    homes.register_panel("captain", "rulings", captain_panel)


__all__ = ["Ruling", "captain_panel", "chief_panel", "register", "team_rulings"]
