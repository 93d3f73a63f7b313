"""Append-only audit log: every ruling, manual pairing change and result change."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .events import Event, Team


class AuditLog(models.Model):
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.CASCADE, related_name="audit_log"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_name = models.CharField(
        _("who"), max_length=150, blank=True, help_text=_("The actor's username, kept as text.")
    )
    action = models.CharField(_("action"), max_length=80)
    target_type = models.CharField(max_length=80, blank=True)
    target_id = models.CharField(max_length=64, blank=True)
    data = models.JSONField(default=dict, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    source = models.CharField(_("from"), max_length=120, blank=True)
    # what the entry is about, from its target (tournaments.audit_actions.subjects): the
    # audit page's filters by team and table read these
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )
    other_team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", db_index=False
    )
    table_number = models.PositiveIntegerField(_("table"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        indexes = [
            models.Index(fields=["event", "action"]),
            models.Index(fields=["event", "team"]),
            models.Index(fields=["event", "other_team"]),
            models.Index(fields=["event", "table_number"]),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_name or '-'} {self.action}"
