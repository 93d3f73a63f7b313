"""Appeals against rulings, the committee's votes and its decision (append-only)."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules_engine import ladder
from tournaments.models import Event, Team

from .rulings import Ruling, Step


class Choice(models.TextChoices):
    UPHOLD = ladder.UPHOLD, _("Uphold the ruling")
    OVERTURN = ladder.OVERTURN, _("Overturn the ruling")
    AMEND = ladder.AMEND, _("Amend the ruling")


class Appeal(models.Model):
    """A team's written appeal (申诉) against a ruling.

    ``match_ended_at`` is the moment the 30 minutes run from (see services.appeals).
    A late appeal is stored refused; the chief referee may accept it with a reason
    (the three ``late_accepted_*`` fields, set once).
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="appeals")
    ruling = models.ForeignKey(Ruling, on_delete=models.PROTECT, related_name="appeals")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="appeals")
    grounds = models.TextField(_("grounds of the appeal"))
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    filed_at = models.DateTimeField(default=timezone.now, db_index=True)
    match_ended_at = models.DateTimeField()
    late = models.BooleanField(default=False)
    late_accepted_at = models.DateTimeField(null=True, blank=True)
    late_accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    late_accepted_reason = models.TextField(blank=True)
    source = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ["-filed_at", "-id"]
        verbose_name = _("appeal")
        verbose_name_plural = _("appeals")

    def __str__(self) -> str:
        return f"#{self.pk} {self.team} v. ruling #{self.ruling_id}"

    @property
    def refused(self) -> bool:
        return self.late and self.late_accepted_at is None

    @property
    def status(self) -> str:
        if AppealDecision.objects.filter(appeal_id=self.pk).exists():
            return "decided"
        return "refused" if self.refused else "open"


class Vote(models.Model):
    """One committee member's vote, with reasons; once per member per appeal."""

    appeal = models.ForeignKey(Appeal, on_delete=models.PROTECT, related_name="votes")
    member = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    choice = models.CharField(_("vote"), max_length=20, choices=Choice.choices)
    amended_step = models.CharField(
        _("amended penalty"), max_length=30, choices=Step.choices, blank=True
    )
    reason = models.TextField(_("reason"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("vote")
        verbose_name_plural = _("votes")
        constraints = [
            models.UniqueConstraint(fields=["appeal", "member"], name="vote_once_per_member"),
        ]

    def __str__(self) -> str:
        return f"{self.member} · {self.choice}"


class AppealDecision(models.Model):
    """The committee's decision, taken when a choice reaches a simple majority."""

    appeal = models.OneToOneField(Appeal, on_delete=models.PROTECT, related_name="decision")
    choice = models.CharField(max_length=20, choices=Choice.choices)
    amended_step = models.CharField(max_length=30, choices=Step.choices, blank=True)
    votes = models.PositiveSmallIntegerField()
    members = models.PositiveSmallIntegerField()
    new_ruling = models.ForeignKey(
        Ruling, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("appeal decision")
        verbose_name_plural = _("appeal decisions")

    def __str__(self) -> str:
        return f"{self.appeal} → {self.choice}"
