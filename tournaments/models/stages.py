"""Stages (阶段) and sections (组) of an event (SPEC §2 "stages and sections").

- :class:`Stage`: one part of the event, played as a Swiss (积分编排赛), a round robin
  (循环赛, Berger tables) or a knockout (淘汰赛), with its own match format (the rules
  engine's ``match_format``). Its entrants are every checked-in team, or the top N of each
  section of one or more earlier stages; it starts from 0 or carries the points.
- :class:`Section`: a group of a stage (男双/女双/混双, A组/B组, a hall) paired and ranked
  apart from the others; :class:`SectionEntry` puts a team in it at a seed position.

An event without Stage rows is one implicit Swiss stage (``Event.num_rounds``), as
before. A round of a stage (``Round.stage``) holds every section's tables (one clock, one
table numbering per venue); each match names its section (``Match.section``) and, in a
knockout, its place in the bracket (``Match.bracket_slot``, e.g. ``R1-3`` or ``3P``).
"""

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from rules_engine.errors import RulesError
from rules_engine.format_fields import parse_format
from tournaments.freshness import PublicManager

from .events import Event, Team


class Stage(models.Model):
    class Kind(models.TextChoices):
        SWISS = "swiss", _("Swiss (积分编排赛)")
        ROUND_ROBIN = "round_robin", _("Round robin (循环赛)")
        KNOCKOUT = "knockout", _("Knockout (淘汰赛)")

    class Entrants(models.TextChoices):
        ALL = "all", _("All checked-in teams")
        QUALIFIED = "qualified", _("The top teams of each section of earlier stages")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="stages")
    order = models.PositiveSmallIntegerField(_("order"))
    name = models.CharField(_("name"), max_length=100)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    match_format = models.JSONField(
        _("match format"),
        default=dict,
        blank=True,
        help_text=_(
            "The rules engine's match format (end, deals, minutes, games); empty: "
            "the event's usual scoring."
        ),
    )
    num_rounds = models.PositiveSmallIntegerField(
        _("number of rounds"),
        null=True,
        blank=True,
        help_text=_("Swiss only; a round robin and a knockout have the rounds their field needs."),
    )
    entrants = models.CharField(
        _("entrants"), max_length=20, choices=Entrants.choices, default=Entrants.ALL
    )
    qualify_top = models.PositiveSmallIntegerField(
        _("qualifiers per section"),
        null=True,
        blank=True,
        help_text=_("The top N of each section of the source stages enter this stage."),
    )
    sources = models.ManyToManyField(
        "self",
        symmetrical=False,
        blank=True,
        related_name="feeds",
        verbose_name=_("qualifying stages"),
    )
    carry_points = models.BooleanField(
        _("carry the points"),
        default=False,
        help_text=_("Off: the stage starts from 0 points; on: earlier stages' points count."),
    )
    third_place = models.BooleanField(_("third-place match"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    # public answers read its rows: every write moves the event's revision (freshness)
    objects = PublicManager()
    event_path = "event"

    class Meta:
        ordering = ["event", "order"]
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        constraints = [
            models.UniqueConstraint(fields=["event", "order"], name="stage_unique_order"),
            models.UniqueConstraint(fields=["event", "name"], name="stage_unique_name"),
            models.CheckConstraint(
                condition=Q(kind__in=["swiss", "round_robin", "knockout"]), name="stage_kind_valid"
            ),
            models.CheckConstraint(
                condition=~Q(kind="swiss") | Q(num_rounds__gte=1), name="stage_swiss_has_rounds"
            ),
            models.CheckConstraint(
                condition=~Q(entrants="qualified") | Q(qualify_top__gte=1),
                name="stage_qualified_has_top",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} · {self.name}"

    @property
    def is_knockout(self) -> bool:
        return self.kind == self.Kind.KNOCKOUT

    def engine_format(self) -> dict | None:
        """The match format the engine scores this stage's matches by (None: the event's
        usual scoring). A knockout match must produce a winner: its format is a knockout
        format (the engine adds the extra deals at equal levels, per preset). RulesError
        naming ``format.<field>`` for a format the engine refuses."""
        if self.is_knockout:
            return parse_format({**(self.match_format or {}), "knockout": True})
        if self.match_format:
            return parse_format(self.match_format)
        return None

    def clean(self):
        super().clean()
        try:
            self.engine_format()
        except RulesError as err:
            raise ValidationError({"match_format": str(err)}) from None


class Section(models.Model):
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="sections")
    name = models.CharField(_("name"), max_length=100)
    order = models.PositiveSmallIntegerField(_("order"))

    # public answers read its rows: every write moves the event's revision (freshness)
    objects = PublicManager()
    event_path = "stage__event"

    class Meta:
        ordering = ["stage", "order"]
        verbose_name = _("section")
        verbose_name_plural = _("sections")
        constraints = [
            models.UniqueConstraint(fields=["stage", "name"], name="section_unique_name"),
            models.UniqueConstraint(fields=["stage", "order"], name="section_unique_order"),
        ]

    def __str__(self) -> str:
        return f"{self.stage} · {self.name}"


class SectionEntry(models.Model):
    """A team in a section at seed position ``seed`` (1 = top); a team is in one section of
    a stage at most (``stage`` is the section's, kept here for that constraint)."""

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="entries")
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="entries")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="section_entries")
    seed = models.PositiveIntegerField(_("seed"))

    # public answers read its rows: every write moves the event's revision (freshness)
    objects = PublicManager()
    event_path = "stage__event"

    class Meta:
        ordering = ["section", "seed"]
        verbose_name = _("section entry")
        verbose_name_plural = _("section entries")
        constraints = [
            models.UniqueConstraint(fields=["stage", "team"], name="entry_team_once_per_stage"),
            models.UniqueConstraint(fields=["section", "seed"], name="entry_unique_seed"),
        ]

    def __str__(self) -> str:
        return f"{self.section} · {self.seed} · {self.team_id}"
