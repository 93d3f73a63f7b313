"""Table devices and result confirmations.

- :class:`TableKey`: a private, revocable key per event table. A phone or tablet at the
  table opens ``/table/<key>/`` and may write that table's match (of the current round) only.
- :class:`ResultConfirmation`: who confirmed which result version, and in what capacity
  (captain of a team, second referee, chief referee). A version counts for standings once
  confirmed (see ``tournaments.services.result_confirm``).
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .events import Event, Team
from .results import ResultVersion


def new_key() -> str:
    return secrets.token_urlsafe(24)


class TableKey(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="table_keys")
    table_number = models.PositiveIntegerField(_("table"))
    key = models.CharField(max_length=64, unique=True, default=new_key, editable=False)
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("table referee"),
        help_text=_(
            "The table referee this key belongs to: entries through the key are theirs "
            "and they cannot confirm them."
        ),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["event", "table_number", "-created_at"]
        verbose_name = _("table key")
        verbose_name_plural = _("table keys")
        constraints = [
            # One live key per table; revoked keys stay for the record.
            models.UniqueConstraint(
                fields=["event", "table_number"],
                condition=Q(revoked_at__isnull=True),
                name="table_key_one_live_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} · T{self.table_number}"

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None


class ResultConfirmation(models.Model):
    class Capacity(models.TextChoices):
        CAPTAIN = "captain", _("Captain")
        REFEREE = "referee", _("Second referee")
        CHIEF = "chief", _("Chief referee")

    version = models.ForeignKey(
        ResultVersion, on_delete=models.PROTECT, related_name="confirmations"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    capacity = models.CharField(max_length=20, choices=Capacity.choices)
    team = models.ForeignKey(
        Team,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("For a captain: the team they confirmed for."),
    )
    source = models.CharField(_("from"), max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["version", "created_at"]
        verbose_name = _("result confirmation")
        verbose_name_plural = _("result confirmations")
        constraints = [
            models.UniqueConstraint(
                fields=["version", "team"],
                condition=Q(team__isnull=False),
                name="confirmation_once_per_team",
            ),
            models.UniqueConstraint(fields=["version", "user"], name="confirmation_once_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.version} ✓ {self.user} ({self.capacity})"
