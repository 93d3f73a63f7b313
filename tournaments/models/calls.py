"""Calls to the chief referee raised from a table (呼叫裁判).

A table referee (or the table's device, through its key) presses "Call the chief referee" on
the table page, optionally with a short note; the call waits in the chief's queue on the
operations board until the chief marks it answered. Who raised and who answered are kept as
text (the username), so the record survives the user. One open call per table and round: a
second press while the first waits adds nothing.
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .events import Event
from .rounds import Round


class RefereeCall(models.Model):
    class Via(models.TextChoices):
        REFEREE = "referee", _("by the table referee")
        TABLE_KEY = "table_key", _("by the table's device")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="calls")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="calls")
    table_number = models.PositiveIntegerField(_("table"))
    note = models.CharField(_("note"), max_length=300, blank=True)
    raised_by_name = models.CharField(_("called by"), max_length=150, blank=True)
    raised_via = models.CharField(_("called"), max_length=10, choices=Via.choices)
    created_at = models.DateTimeField(_("called at"), auto_now_add=True)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    answered_by_name = models.CharField(_("answered by"), max_length=150, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("call to the chief referee")
        verbose_name_plural = _("calls to the chief referee")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table_number"],
                condition=Q(answered_at__isnull=True),
                name="call_one_open_per_table_and_round",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} · T{self.table_number} · {self.raised_by_name}"

    @property
    def is_open(self) -> bool:
        return self.answered_at is None
