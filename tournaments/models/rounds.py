"""Rounds and matches (pairings): a match's home and away team; the side each plays is the
rules engine's answer (rules_engine.seating.side_of), stored in its RoundSlot."""

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from tournaments.freshness import PublicManager

from .events import Event, Team
from .stages import Section, Stage


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft pairing")
        PUBLISHED = "published", _("Published")
        IN_PLAY = "in_play", _("In play")
        COMPLETE = "complete", _("Results complete")
        FINALISED = "finalised", _("Finalised")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.DRAFT
    )
    draw_seed = models.BigIntegerField(
        _("draw seed"),
        null=True,
        blank=True,
        help_text=_("Random seed of a drawn round, for audit."),
    )
    published_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)
    finalised_at = models.DateTimeField(null=True, blank=True)
    stage = models.ForeignKey(
        Stage,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="rounds",
        verbose_name=_("stage"),
        help_text=_("None: the event's one implicit Swiss stage."),
    )
    drawn_from = models.JSONField(
        default=list,
        blank=True,
        help_text=_("The teams (ids) the draft was drawn from; a different field makes it stale."),
    )

    # public answers read its rows: every write moves the event's revision (freshness)
    objects = PublicManager()
    event_path = "event"

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.event} · R{self.number}"


class Match(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table_number = models.PositiveIntegerField(_("table"), null=True, blank=True)
    home = models.ForeignKey(
        Team,
        on_delete=models.PROTECT,
        related_name="home_matches",
        verbose_name=_("home (East–West)"),
    )
    away = models.ForeignKey(
        Team,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="away_matches",
        verbose_name=_("away (North–South)"),
    )
    flags = models.JSONField(default=list, blank=True)
    section = models.ForeignKey(
        Section,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="matches",
        verbose_name=_("section"),
    )
    bracket_slot = models.CharField(
        _("bracket place"),
        max_length=8,
        blank=True,
        help_text=_("A knockout match's place in its bracket: R<round>-<match>, or 3P."),
    )

    # public answers read its rows: every write moves the event's revision (freshness)
    objects = PublicManager()
    event_path = "round__event"

    class Meta:
        ordering = ["round", "table_number"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(fields=["round", "table_number"], name="match_unique_table"),
            models.CheckConstraint(condition=~Q(home=F("away")), name="match_distinct_teams"),
            # A bye has no away team and no table; a played match has both.
            models.CheckConstraint(
                condition=(Q(away__isnull=True) & Q(table_number__isnull=True))
                | (Q(away__isnull=False) & Q(table_number__isnull=False)),
                name="match_bye_has_no_table",
            ),
        ]

    def __str__(self) -> str:
        if self.is_bye:
            return f"{self.round} · {self.home} (bye)"
        return f"{self.round} · T{self.table_number} · {self.home} – {self.away}"

    @property
    def is_bye(self) -> bool:
        return self.away_id is None


class RoundSlot(models.Model):
    """One row per team per round: the database guarantees a team plays at most once a round."""

    class Side(models.TextChoices):  # which one the home team plays: seating.side_of
        EW = "EW", _("East–West")
        NS = "NS", _("North–South")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="slots")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="slots")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="slots")
    side = models.CharField(max_length=2, choices=Side.choices)

    # public answers read its rows: every write moves the event's revision (freshness)
    objects = PublicManager()
    event_path = "round__event"

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "team"], name="slot_team_once_per_round"),
            models.UniqueConstraint(fields=["match", "side"], name="slot_one_team_per_side"),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {self.team_id} · {self.side}"
