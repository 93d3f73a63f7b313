"""Check-in (签到) before round 1, leaves (请假) for a round, and teams seated at their tables.

SPEC §2: teams not checked in are left out of the round-1 draw; a team on leave for a round
is not paired that round (0 points, not a bye); a team not seated at start + 10 minutes
(15 with a late-arrival leave approved in advance) is late, and its forfeit is proposed to the
chief referee. Who did it is kept as text (the username), so it survives the user.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.freshness import PublicManager

from .events import Team
from .rounds import Round


class CheckIn(models.Model):
    class Via(models.TextChoices):
        LIST = "list", _("by list")
        BADGE = "badge", _("by badge QR")
        IMPORT = "import", _("by import")

    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="checkin")
    via = models.CharField(_("checked in"), max_length=10, choices=Via.choices)
    by_name = models.CharField(_("by"), max_length=150, blank=True)
    at = models.DateTimeField(_("at"), auto_now_add=True)

    # public answers read its rows (a team never checked in that played no match is listed
    # apart as 未参赛, SPEC §2): every write moves the event's revision (freshness)
    objects = PublicManager()
    event_path = "team__event"

    class Meta:
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")

    def __str__(self) -> str:
        return f"{self.team} · {self.via}"


class RoundLeave(models.Model):
    class Kind(models.TextChoices):
        MISS_ROUND = "miss_round", _("misses the round")
        LATE_ARRIVAL = "late_arrival", _("may arrive late")

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="leaves")
    round_number = models.PositiveSmallIntegerField(_("round"))
    kind = models.CharField(_("leave"), max_length=20, choices=Kind.choices)
    reason = models.TextField(_("reason"))
    by_name = models.CharField(_("approved by"), max_length=150, blank=True)
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ["round_number", "team"]
        verbose_name = _("leave")
        verbose_name_plural = _("leaves")
        constraints = [
            models.UniqueConstraint(fields=["team", "round_number"], name="leave_once_per_round"),
            models.CheckConstraint(
                condition=models.Q(round_number__gte=1), name="leave_round_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team} · R{self.round_number} · {self.kind}"


class Seating(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seatings")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="seatings")
    by_name = models.CharField(_("by"), max_length=150, blank=True)
    at = models.DateTimeField(_("seated at"), auto_now_add=True)

    class Meta:
        verbose_name = _("seated team")
        verbose_name_plural = _("seated teams")
        constraints = [
            models.UniqueConstraint(fields=["round", "team"], name="seating_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {self.team}"
