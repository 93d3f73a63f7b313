"""Match results as append-only versions.

Every submission, correction, void or arbitration effect is a new ResultVersion; nothing is
overwritten or deleted. The version that counts for standings is the one flagged
``is_counting``; the database guarantees at most one per match (partial unique constraint).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from rules_engine.outcome import Outcome
from tournaments.freshness import PublicManager
from tournaments.sql import rows

from .events import Event, Team
from .rounds import Match


class ResultVersion(models.Model):
    class Kind(models.TextChoices):
        SUBMISSION = "submission", _("Submission")
        CORRECTION = "correction", _("Correction by the chief referee")
        VOID = "void", _("Voided")
        RULING = "ruling", _("Effect of a ruling")

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="versions")
    number = models.PositiveIntegerField(_("version"))
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.SUBMISSION)
    record = models.JSONField(_("match record"), help_text=_("The match record JSON (SPEC §4.5)."))
    outcome = models.JSONField(
        _("result"), help_text=_("The rules engine's answer for the record.")
    )
    note = models.TextField(_("note"), blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The usernames as text too: the record says who, whatever happens to the account.
    created_by_name = models.CharField(_("entered by"), max_length=150, blank=True)
    via = models.CharField(_("via"), max_length=20, blank=True, help_text="web / api / table-key")
    source = models.CharField(_("from"), max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_(
            "The table referee who answers for this entry: the user who entered it, "
            "or the referee the table key belongs to. They never confirm it."
        ),
    )
    idempotency_key = models.UUIDField(
        _("Idempotency-Key"),
        null=True,
        blank=True,
        help_text=_("The key the phone sent with this submission; a repeat answers this version."),
    )
    idempotency_hash = models.CharField(max_length=64, blank=True, editable=False)
    is_counting = models.BooleanField(_("counts"), default=False)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_by_name = models.CharField(_("confirmed by"), max_length=150, blank=True)

    # public answers read its rows: every write moves the event's revision (freshness)
    objects = PublicManager()
    event_path = "match__round__event"

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("result version")
        verbose_name_plural = _("result versions")
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number"], name="result_version_unique_number"
            ),
            models.UniqueConstraint(
                fields=["match"],
                condition=Q(is_counting=True),
                name="result_one_counting_per_match",
            ),
            # A submission's Idempotency-Key is scoped to its match and kept with the version.
            models.UniqueConstraint(
                fields=["match", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="result_idempotency_key_once_per_match",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} · v{self.number}"

    def save(self, *args, **kwargs):
        """Keeps the usernames of ``created_by`` and ``confirmed_by`` as text."""
        names = {"created_by": "created_by_name", "confirmed_by": "confirmed_by_name"}
        update_fields = kwargs.get("update_fields")
        saved = names if update_fields is None else [f for f in update_fields if f in names]
        for link in saved:
            if getattr(self, f"{link}_id"):
                setattr(self, names[link], getattr(self, link).get_username())
        if update_fields is not None:
            kwargs["update_fields"] = {*update_fields, *(names[link] for link in saved)}
        if kwargs == {"force_insert": True} and not args:
            rows.insert(self)  # every result writes one: SQL built once (tournaments/sql/rows.py)
        else:
            super().save(*args, **kwargs)

    @property
    def result(self) -> Outcome:
        """The engine's answer, read (the one reader of its shape: rules_engine.outcome)."""
        return Outcome.from_answer(self.outcome)


class RankingAdjustment(models.Model):
    """A team moved down N places in the final ranking, e.g. by an arbitration ruling; with
    ``unit`` set, that unit moves down in the unit standings instead (the idiom-chain hint)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="ranking_adjustments")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="ranking_adjustments")
    unit = models.ForeignKey(
        "tournaments.Unit",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ranking_adjustments",
        help_text=_("Set: the unit moves down in the unit standings, not the team."),
    )
    places = models.IntegerField(_("places down"), help_text=_("Positive moves the team down."))
    reason = models.TextField(_("reason"))
    source = models.CharField(max_length=80, blank=True, help_text="e.g. arbitration.ruling:12")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancelled_reason = models.TextField(blank=True)

    # public answers read its rows: every write moves the event's revision (freshness)
    objects = PublicManager()
    event_path = "event"

    class Meta:
        ordering = ["created_at"]
        verbose_name = _("ranking adjustment")
        verbose_name_plural = _("ranking adjustments")

    def __str__(self) -> str:
        return f"{self.team} {self.places:+d}"
