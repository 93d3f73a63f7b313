"""Events, units (单位), teams and players."""

from django.conf import settings as django_settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from rules_engine.errors import RulesError
from rules_engine.presets import PRESETS, event_preset
from tournaments.freshness import PublicManager
from tournaments.halls import Hall
from tournaments.halls import parse as parse_halls
from tournaments.sql import revision as revision_sql
from tournaments.sql import rows


class Game(models.TextChoices):
    GUANDAN = "guandan", _("Guandan 掼蛋")
    TRACTOR = "tractor", _("Tractor 拖拉机")
    CHENGYU = "chengyu", _("Idiom-chain poker 成语接龙")


class Event(models.Model):
    class Status(models.TextChoices):
        """Driven by the services (tournaments.services.events), never set by hand."""

        REGISTRATION = "registration", _("Registration")
        CHECK_IN = "check_in", _("Check-in")
        IN_PLAY = "in_play", _("In play")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name"), max_length=60, unique=True)
    game = models.CharField(_("game"), max_length=20, choices=Game.choices)
    preset = models.CharField(_("scoring preset"), max_length=60)
    settings = models.JSONField(
        _("settings"), default=dict, blank=True, help_text=_("Overrides of the preset's settings.")
    )
    num_rounds = models.PositiveSmallIntegerField(_("number of rounds"), default=7)
    round_minutes = models.PositiveSmallIntegerField(_("round length (minutes)"), default=60)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.REGISTRATION
    )
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    awards = models.TextField(
        _("awards"),
        blank=True,
        help_text=_("One award a line: its name and the places, e.g. “一等奖 1-3”."),
    )
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    halls = models.TextField(
        _("halls"), blank=True, help_text=_("One hall a line, e.g. “Hall A 1-60”.")
    )
    event_file_public = models.BooleanField(
        _("publish the event file once the event is finished"),
        default=False,
        help_text=_(
            "Anyone may then download the event file (without the archive) from the public "
            "standings page and check every draw and ranking with the paisai checker."
        ),
    )
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    # public answers read its rows: every write moves the event's revision (freshness)
    objects = PublicManager()
    event_path = "pk"

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.CheckConstraint(
                condition=Q(game__in=["guandan", "tractor", "chengyu"]),
                name="tournament_game_valid",
            ),
            models.CheckConstraint(
                condition=Q(num_rounds__gte=1), name="tournament_rounds_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        """Settings the engine's schema refuses are never stored (RulesError)."""
        self.get_preset()
        super().save(*args, **kwargs)

    # The event revision: bumped in the same transaction as every change of what the public
    # sees (tournaments.freshness.invalidate); every cached public answer is keyed on
    # it, so a cache can never serve an answer older than the database. It is the sum of the
    # event's EventRevision counters, which only ever grows, and by one with every commit
    # that bumps it: a sum names one moment of the event as surely as one counter would.

    @property
    def revision(self) -> int:
        """The revision when this event was loaded (read in the same query by
        tournaments.sql.lookups.event, else at the first ask)."""
        self._load_revision()
        return self.loaded_revision

    @property
    def revised_at(self):
        """When the revision was last bumped (None: never since it was created)."""
        self._load_revision()
        return self.loaded_revised_at

    def _load_revision(self) -> None:
        if "loaded_revision" not in self.__dict__:
            self.hold_revision(*EventRevision.current(self.pk))

    def hold_revision(self, revision: int, revised_at) -> None:
        """Keep the two ``tournaments.sql.revision.revision_columns`` as read (``revised_at`` as the database sent
        it) as this event's revision."""
        self.loaded_revision = revision
        self.loaded_revised_at = rows.field_value(EventRevision, "at", revised_at)

    def refresh_from_db(self, *args, **kwargs):
        self.__dict__.pop("loaded_revision", None)
        self.__dict__.pop("loaded_revised_at", None)
        super().refresh_from_db(*args, **kwargs)

    def hall_list(self) -> list[Hall]:
        """The event's halls, each with the range of its tables when it has one."""
        return parse_halls(self.halls)

    def get_preset(self):
        """The rules engine preset with this event's settings applied (the engine's
        event-settings schema checks them: RulesError naming ``preset`` or ``settings.<key>``)."""
        return event_preset(self.game, self.preset, self.settings)

    def clean(self):
        """Forms and the admin refuse settings the engine's schema refuses."""
        super().clean()
        if not (self.game and self.preset):
            return  # the form already says that one is missing
        try:
            self.get_preset()
        except RulesError as err:
            if err.field == "preset" and self.preset in PRESETS:
                raise ValidationError(
                    {"preset": gettext("This preset is not for the chosen game.")}
                ) from None
            field = "preset" if err.field == "preset" else "settings"
            raise ValidationError({field: err.localized(get_language())}) from None


class EventRevision(models.Model):
    """One of an event's REVISION_SHARDS (tournaments.freshness) revision counters; the event's
    revision is their sum. A change bumps one counter, chosen at random, as its transaction's last statement
    (tournaments.standings.service): a counter row stays locked until its transaction has
    committed, WAL flush included, so with one counter every result of an event waited for
    the commit before it. Rows are made on their first bump."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    shard = models.PositiveSmallIntegerField()
    bumps = models.PositiveBigIntegerField(default=0)
    at = models.DateTimeField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["event", "shard"], name="event_revision_one_row_a_shard"
            )
        ]

    def __str__(self) -> str:
        return f"{self.event_id}/{self.shard}: {self.bumps}"

    @classmethod
    def current(cls, event_id: int | None) -> tuple[int, object]:
        """(revision, time of the last bump as the database sends it) of an event now."""
        return revision_sql.current(event_id)


class Unit(models.Model):
    """A club, company or city delegation (单位). Teams of one unit are kept apart in pairing."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="units")
    name = models.CharField(_("name"), max_length=200)

    # public answers read its rows: every write moves the event's revision (freshness)
    objects = PublicManager()
    event_path = "event"

    class Meta:
        ordering = ["name"]
        verbose_name = _("unit")
        verbose_name_plural = _("units")
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="unit_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name


# The longest team and player names (issue 39): the one home of both limits; the team form,
# the API and the import read them from these fields. A team name is printed on table cards,
# scoresheets and the projector's line; a player's name is two to four characters in Chinese,
# and a name written in Latin letters fits in 40.
TEAM_NAME_MAX = 60
PLAYER_NAME_MAX = 40


class Team(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        SUSPENDED = "suspended", _("Suspended")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=TEAM_NAME_MAX)
    unit = models.ForeignKey(
        Unit,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="teams",
        verbose_name=_("unit"),
    )
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.ACTIVE
    )
    draw_lot = models.PositiveIntegerField(
        _("draw lot"),
        null=True,
        blank=True,
        help_text=_("Last tiebreak (抽签), drawn with a recorded seed."),
    )

    # public answers read its rows: every write moves the event's revision (freshness)
    objects = PublicManager()
    event_path = "event"

    class Meta:
        ordering = ["name"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="team_unique_name"),
            models.UniqueConstraint(
                fields=["event", "seed"],
                condition=Q(seed__isnull=False),
                name="team_unique_seed",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE


class Player(models.Model):
    """One of the two partners (对门) of a team; seat_order 1 or 2."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=PLAYER_NAME_MAX)
    seat_order = models.PositiveSmallIntegerField(_("seat order"))
    # An ID number or phone, optional: tells two players of the same name apart (one person
    # plays on one team per event).
    ident = models.CharField(
        _("ID number or phone"),
        max_length=40,
        blank=True,
        help_text=_("Optional: tells apart two players of the same name."),
    )

    # public answers read its rows: every write moves the event's revision (freshness)
    objects = PublicManager()
    event_path = "team__event"

    class Meta:
        ordering = ["team", "seat_order"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["team", "seat_order"], name="player_unique_seat"),
            models.CheckConstraint(
                condition=Q(seat_order__gte=1) & Q(seat_order__lte=2), name="player_two_per_team"
            ),
        ]

    def __str__(self) -> str:
        return self.name
