"""Rulings on the penalty ladder and their revocations (append-only)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from rules_engine import ladder
from tournaments.models import Event, Match, RankingAdjustment, ResultVersion, Team

from .incidents import Incident


class Step(models.TextChoices):
    NO_PENALTY = ladder.NO_PENALTY, _("No penalty (不予处罚)")
    VERBAL_WARNING = ladder.VERBAL_WARNING, _("Verbal warning (口头警告)")
    WARNING = ladder.WARNING, _("Warning (警告)")
    VIOLATION = ladder.VIOLATION, _("Violation (记违例)")
    LEVEL_DEDUCTION = ladder.LEVEL_DEDUCTION, _("Level deduction (降级)")
    MATCH_LOSS = ladder.MATCH_LOSS, _("Match loss (判负)")
    SUSPENSION = ladder.SUSPENSION, _("Suspension (停赛)")
    TRICK_TO_OPPONENTS = ladder.TRICK_TO_OPPONENTS, _("One trick to the opponents (判罚一墩)")
    ROUND_LOST = ladder.ROUND_LOST, _("Round lost 4:9")
    RANKING_DROP = ladder.RANKING_DROP, _("Down in the final ranking")
    FORFEIT = ladder.FORFEIT, _("Forfeit for lateness (弃权)")
    SCORED_LAST = ladder.SCORED_LAST, _("Scored last in the deal (下游)")


# Steps of the in-play ladders (rules_engine.ladder_national: national, Suzhou) that the ladder
# proposes beside a general step; the chief referee rules them as the general step they come
# with.
IN_PLAY_STEP_LABELS = {
    "round_of_play_lost": _("Loses a round of play (停止一圈出牌权)"),
    "foul": _("Foul (犯规)"),
    "tribute_redone": _("The tribute is given again (重新给牌)"),
}


def step_label(step: str) -> str:
    """The name of a step the ladder proposes, in the active language."""
    if step in Step.values:
        return Step(step).label
    return IN_PLAY_STEP_LABELS.get(step, step)


class Ruling(models.Model):
    """The chief referee's decision on an incident, or a step the escalation made of it.

    Never edited or deleted: a ruling is cancelled by a :class:`Revocation` (appeal, or the
    chief referee's correction), and an amendment is a new ruling that ``amends`` the old.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rulings")
    incident = models.ForeignKey(
        Incident, null=True, blank=True, on_delete=models.PROTECT, related_name="rulings"
    )
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="rulings")
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="rulings"
    )
    step = models.CharField(_("penalty"), max_length=30, choices=Step.choices)
    levels = models.PositiveSmallIntegerField(_("levels"), default=1)
    opponent_up = models.BooleanField(_("the opponents go up instead"), default=False)
    deal = models.PositiveSmallIntegerField(_("deal"), null=True, blank=True)
    places = models.PositiveSmallIntegerField(_("places down"), default=0)
    reason = models.TextField(_("reason"))
    automatic = models.BooleanField(_("by escalation"), default=False)
    escalated_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="escalations"
    )
    amends = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="amendments"
    )
    # The national in-play ladder's own steps (停止一圈出牌权, 犯规) the ruling carries beside
    # its general step, as the ladder proposed them (rules_engine.ladder_national).
    in_play_steps = models.JSONField(_("in-play steps"), default=list, blank=True)
    effect = models.JSONField(_("effect"), default=dict, blank=True)
    result_version = models.ForeignKey(
        ResultVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    ranking_adjustment = models.ForeignKey(
        RankingAdjustment, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    source = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("ruling")
        verbose_name_plural = _("rulings")
        constraints = [
            models.CheckConstraint(condition=Q(levels__gte=1), name="ruling_levels_positive"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.team} · {self.get_step_display()}"

    @property
    def in_play_labels(self) -> list[str]:
        """The national in-play steps in words (停止一圈出牌权, 犯规)."""
        return [step_label(step) for step in self.in_play_steps or []]

    @property
    def is_active(self) -> bool:
        """Not revoked (asks the database: a cached relation could be stale)."""
        return not Revocation.objects.filter(ruling_id=self.pk).exists()


class Revocation(models.Model):
    """A ruling cancelled with its effects: by an appeal decision or a chief referee's
    correction. One per ruling (the database says so)."""

    ruling = models.OneToOneField(Ruling, on_delete=models.PROTECT, related_name="revocation")
    reason = models.TextField(_("reason"))
    appeal = models.ForeignKey(
        "arbitration.Appeal", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    result_version = models.ForeignKey(
        ResultVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("revocation")
        verbose_name_plural = _("revocations")

    def __str__(self) -> str:
        return f"{self.ruling} revoked"
