"""Per-event roles and referees' table assignments."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .events import Event, Team


class Role(models.TextChoices):
    ORGANISER = "organiser", _("Organiser 组委会")
    CHIEF_REFEREE = "chief_referee", _("Chief referee 裁判长")
    TABLE_REFEREE = "table_referee", _("Table referee 临场裁判")
    COMMITTEE = "committee", _("Arbitration committee 仲裁委员")
    CAPTAIN = "captain", _("Team captain 队长")


class EventRole(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="paisai_roles"
    )
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="roles")
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    team = models.ForeignKey(
        Team,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="captains",
        help_text=_("For captains: the team they speak for."),
    )
    # when the role was given (empty for roles older than the field): an official lifts the
    # login lock only of a person who was in the event before the lock began (issue 39)
    granted_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("event role")
        verbose_name_plural = _("event roles")
        constraints = [
            models.UniqueConstraint(fields=["user", "event", "role"], name="role_unique"),
            models.CheckConstraint(
                condition=(Q(role="captain") & Q(team__isnull=False))
                | (~Q(role="captain") & Q(team__isnull=True)),
                name="role_captain_has_team",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_role_display()} · {self.event}"


class TableAssignment(models.Model):
    """A table referee may write only the tables assigned to them (for every round)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="table_assignments")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_assignments"
    )
    table_number = models.PositiveIntegerField(_("table"))

    class Meta:
        ordering = ["table_number"]
        verbose_name = _("table assignment")
        verbose_name_plural = _("table assignments")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "user", "table_number"], name="table_assignment_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.table_number}"
