"""log_action: one call records who did what, when, from where and why."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from tournaments import audit_actions
from tournaments.models import AuditLog, Event
from tournaments.sql import rows


def client_address(request) -> str:
    """The client's address. ``X-Forwarded-For`` is believed only when the request comes from
    one of ``TRUSTED_PROXIES`` (none by default): then the address is the right-most one that
    is not itself a trusted proxy; any client can write the header, only a proxy appends to it.
    """
    if request is None:
        return ""
    remote = request.META.get("REMOTE_ADDR", "") or ""
    trusted = set(settings.TRUSTED_PROXIES or ())
    if remote in trusted:
        hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        for hop in reversed([h for h in hops if h]):
            if hop not in trusted:
                return hop[:120]
    return remote[:120]


def log_action(
    event: Event | None,
    actor,
    action: str,
    target: models.Model | None = None,
    data: dict[str, Any] | None = None,
    reason: str = "",
    source: str = "",
) -> AuditLog:
    """Append an audit entry. ``actor`` may be None (system) or an anonymous user. ``action``
    must be declared in the registry (tournaments.audit_actions: UnregisteredAuditAction
    otherwise); the entry keeps the teams and the table its target is about."""
    entry = _entry(event, actor, action, target, data, reason, source)
    return rows.insert(entry)  # one per change: SQL built once (tournaments/sql/rows.py)


def log_actions(
    event: Event | None,
    actor,
    action: str,
    entries: list[tuple[models.Model | None, dict[str, Any] | None]],
    source: str = "",
) -> list[AuditLog]:
    """Append one audit entry per (target, data) of ``entries`` — the same entries as that
    many :func:`log_action` calls — in one INSERT (an action on many rows at once, e.g. the
    chief's bulk confirm: its cost does not grow a query per row)."""
    audit_actions.lookup(action)
    made = [_entry(event, actor, action, target, data, "", source) for target, data in entries]
    return AuditLog.objects.bulk_create(made) if made else []


def _entry(event, actor, action, target, data, reason, source) -> AuditLog:
    audit_actions.lookup(action)
    if actor is not None and not getattr(actor, "is_authenticated", False):
        actor = None
    teams, table = audit_actions.subjects(target)
    return AuditLog(
        event=event,
        actor=actor,
        actor_name=actor.get_username() if actor is not None else "",
        action=action,
        target_type=target._meta.label_lower if target is not None else "",
        target_id=str(target.pk) if target is not None else "",
        data=data or {},
        reason=reason or "",
        source=source[:120],
        team_id=teams[0] if teams else None,
        other_team_id=teams[1] if len(teams) > 1 else None,
        table_number=table,
    )
