"""log_action: one call records who did what, when, from where and why."""

from __future__ import annotations

from typing import Any

from django.db import models

from tournaments.models import AuditLog, Tournament


def client_address(request) -> str:
    if request is None:
        return ""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    return (forwarded.split(",")[0].strip() if forwarded else request.META.get("REMOTE_ADDR", ""))[
        :120
    ]


def log_action(
    tournament: Tournament | None,
    actor,
    action: str,
    target: models.Model | None = None,
    data: dict[str, Any] | None = None,
    reason: str = "",
    source: str = "",
) -> AuditLog:
    """Append an audit entry. ``actor`` may be None (system) or an anonymous user."""
    if actor is not None and not getattr(actor, "is_authenticated", False):
        actor = None
    return AuditLog.objects.create(
        tournament=tournament,
        actor=actor,
        action=action,
        target_type=target._meta.label_lower if target is not None else "",
        target_id=str(target.pk) if target is not None else "",
        data=data or {},
        reason=reason or "",
        source=source[:120],
    )
