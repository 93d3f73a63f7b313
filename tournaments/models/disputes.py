"""A captain's dispute of a result version: a call to the table for the chief referee.

While a dispute is open the version cannot count (nobody confirms it); the chief referee
decides: the version stands (it counts), the dispute is dismissed (the captains may confirm
again), or the chief corrects the result (a new version; the dispute closes as corrected).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .events import Team
from .results import ResultVersion
from .rounds import Match


class ResultDispute(models.Model):
    class Decision(models.TextChoices):
        STANDS = "stands", _("The version stands")
        DISMISSED = "dismissed", _("Dispute dismissed")
        CORRECTED = "corrected", _("Corrected by the chief referee")

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="disputes")
    version = models.ForeignKey(ResultVersion, on_delete=models.PROTECT, related_name="disputes")
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    raised_by_name = models.CharField(_("raised by"), max_length=150, blank=True)
    reason = models.TextField(_("reason"))
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_by_name = models.CharField(_("decided by"), max_length=150, blank=True)
    decision = models.CharField(_("decision"), max_length=20, choices=Decision.choices, blank=True)
    decision_note = models.TextField(_("note"), blank=True)

    class Meta:
        ordering = ["created_at"]
        verbose_name = _("result dispute")
        verbose_name_plural = _("result disputes")
        constraints = [
            models.UniqueConstraint(
                fields=["version", "team"],
                condition=Q(decided_at__isnull=True),
                name="dispute_one_open_per_team_and_version",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.version} ✗ {self.raised_by_name}"

    @property
    def is_open(self) -> bool:
        return self.decided_at is None
