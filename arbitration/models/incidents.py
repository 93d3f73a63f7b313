"""Incidents at a table and the evidence attached to them (append-only)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from rules_engine import ladder, ladder_national
from tournaments.glossary import SEATS
from tournaments.models import Event, Match, Player, Team


class Category(models.TextChoices):
    SIGNALLING = ladder.SIGNALLING, _("Signalling or talking")
    WRONG_CARD = ladder.WRONG_CARD, _("Wrong or exposed card")
    OUT_OF_TURN = ladder.OUT_OF_TURN, _("Out-of-turn play")
    LATE_ARRIVAL = ladder.LATE_ARRIVAL, _("Late arrival")
    SLOW_PLAY = ladder.SLOW_PLAY, _("Slow play")
    MISSED_COMPULSORY = ladder.MISSED_COMPULSORY, _("Missed compulsory play (必出)")
    CARD_SHOWING = ladder.CARD_SHOWING, _("Showing cards")
    SPECTATOR_HINT = ladder.SPECTATOR_HINT, _("Spectator hint")
    CHANGED_PLAY = ladder.CHANGED_PLAY, _("Changed a play")
    # the in-play ladders' own categories (SPEC 5): only under a ladder that has them
    # (ten-card call and wrong tribute: national and Suzhou; misplayed combination: national)
    TEN_CARD_CALL = ladder_national.TEN_CARD_CALL, _("10 cards or fewer not announced (报牌)")
    MISPLAYED_COMBINATION = ladder_national.MISPLAYED_COMBINATION, _("Misplayed combination")
    WRONG_TRIBUTE = ladder_national.WRONG_TRIBUTE, _("Wrong tribute or return (违规进贡)")
    OTHER = ladder.OTHER, _("Other")


LADDER_ONLY = ladder_national.OWN_CATEGORIES


def offers_national(preset) -> bool:
    """Whether an event of ``preset`` rules by the national in-play ladder (a wrong tribute
    found after play began names its deal and the offender's seat, who is scored last)."""
    return getattr(preset, "in_play_ladder", None) == "national"


def offers_category(preset, category: str) -> bool:
    """Whether an event of ``preset`` logs ``category``: the general ladder's always, an
    in-play ladder's own only under that ladder."""
    offered = ladder_national.offered_categories(getattr(preset, "in_play_ladder", None))
    return category not in LADDER_ONLY or category in offered


def category_choices(preset) -> list[tuple[str, str]]:
    """The categories an event of ``preset`` offers (an in-play ladder's own ones only under
    that ladder)."""
    return [(v, label) for v, label in Category.choices if offers_category(preset, v)]


MAX_SECONDS = 24 * 3600  # a slow play is timed in seconds; a day is more than any match


class Timed(models.TextChoices):
    PLAY = "play", _("a play")
    TRIBUTE = "tribute", _("a tribute")
    RETURN = "return", _("a return of tribute")


class Incident(models.Model):
    """What happened at a table, as logged by a table referee or the chief referee.

    Never edited: its status is derived from the rulings on it (open while it has none).
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="incidents")
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="incidents"
    )
    team = models.ForeignKey(
        Team,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="incidents",
        verbose_name=_("team concerned"),
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="incidents"
    )
    category = models.CharField(_("category"), max_length=30, choices=Category.choices)
    description = models.TextField(_("what happened"))
    reported_by = models.CharField(
        _("reported by"),
        max_length=200,
        blank=True,
        help_text=_("Who raised it (player, referee…)"),
    )
    arrived_at = models.DateTimeField(_("arrival time"), null=True, blank=True)
    leave_approved = models.BooleanField(_("leave approved in advance"), default=False)
    # Slow play (SPEC 5): how long the play, the tribute or its return took; the national
    # preset's time limits turn it into the proposed penalty.
    seconds = models.PositiveIntegerField(_("seconds taken"), null=True, blank=True)
    timed = models.CharField(
        _("what was timed"), max_length=10, choices=Timed.choices, default=Timed.PLAY
    )
    # A wrong tribute (national text): the deal it was found in and the offender's seat; the
    # ruling scores that seat last (下游) in that deal.
    deal = models.PositiveSmallIntegerField(_("deal"), null=True, blank=True)
    seat = models.CharField(_("seat"), max_length=1, blank=True, choices=list(SEATS.items()))
    logged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    source = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("incident")
        verbose_name_plural = _("incidents")

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_category_display()}"

    @property
    def table_number(self) -> int | None:
        return self.match.table_number if self.match_id else None


class Evidence(models.Model):
    """A rules desk request and the engine's answer, attached to an incident."""

    incident = models.ForeignKey(Incident, on_delete=models.CASCADE, related_name="evidence")
    action = models.CharField(max_length=20)  # check / classify / score
    request = models.JSONField()
    answer = models.JSONField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("evidence")
        verbose_name_plural = _("evidence")

    def __str__(self) -> str:
        return f"{self.incident} · {self.action}"
