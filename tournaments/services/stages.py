"""Stages: set them up (kind, match format, entrants, the stages qualifiers come from).

SPEC §2 "stages and sections". The organiser (``stage.manage``) creates an event's stages in
order, each with its kind, match format (checked by the rules engine) and entrants; this
module also reads them (an event's stages, a stage, a section, a section's teams) and holds
the stage errors. The concerns that build on a stage each have their module:

- ``tournaments.services.stage_sections``: the sections of a stage and the teams in them (by
  hand or split by seed, in turn or snake), and who enters a stage (for qualifiers the top N
  of each section of the earlier stages).
- ``tournaments.services.stage_rounds``: drawing a stage's rounds.
- ``tournaments.services.stage_standings``: standings per section and stage.

Nothing about a stage's field can change once it has a round: the draw, the standings and
the bracket read it. Every change is in the audit log.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy as _

from rules_engine.errors import RulesError
from tournaments import permissions
from tournaments.errors import Code, Forbidden, NotFound, ServiceError
from tournaments.models import Event, Round, Section, Stage
from tournaments.services.audit import log_action
from tournaments.validation import BadInput, check_json

KINDS = tuple(Stage.Kind.values)


class StageError(ServiceError):
    """A stage or section step that cannot be done; ``field`` names the input at fault."""


class StageForbidden(StageError, Forbidden):
    """The user may not set up stages in this event."""


class StageNotFound(StageError, NotFound):
    """No such stage or section in this event."""


# --- reading ------------------------------------------------------------------------------


def stages_of(event: Event) -> list[Stage]:
    return list(event.stages.order_by("order").prefetch_related("sources", "sections"))


def get_stage(event: Event, stage_id) -> Stage:
    try:
        pk = int(stage_id)
    except (TypeError, ValueError):
        pk = None
    stage = None if pk is None else Stage.objects.filter(event=event, pk=pk).first()
    if stage is None:
        raise StageNotFound(_("This event has no stage %(stage)s."), "stage", stage=stage_id)
    return stage


def get_section(stage: Stage, section_id) -> Section:
    try:
        pk = int(section_id)
    except (TypeError, ValueError):
        pk = None
    section = None if pk is None else Section.objects.filter(stage=stage, pk=pk).first()
    if section is None:
        raise StageNotFound(
            _("This stage has no section %(section)s."), "section", section=section_id
        )
    return section


def section_teams(section: Section) -> list[int]:
    """The section's team ids in seed order."""
    return list(section.entries.order_by("seed").values_list("team_id", flat=True))


def has_rounds(stage: Stage) -> bool:
    return Round.objects.filter(stage=stage).exists()


def previous_stages(stage: Stage) -> list[Stage]:
    return list(Stage.objects.filter(event=stage.event_id, order__lt=stage.order))


# --- stages -------------------------------------------------------------------------------


# The largest number a stage takes (rounds, deals, minutes, qualifiers): the form, the API and
# the service's own check read it, and the refusal quotes it.
STAGE_NUMBER_MAX = 999


def _whole(value, field: str, minimum: int = 1) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise StageError(_("%(field)s must be a whole number."), field, field=field)
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise StageError(_("%(field)s must be a whole number."), field, field=field) from None
    if not minimum <= number <= STAGE_NUMBER_MAX:
        raise StageError(
            _("%(field)s must be from %(min)s to %(max)s."),
            field,
            field=field,
            min=minimum,
            max=STAGE_NUMBER_MAX,
        )
    return number


def _check(stage: Stage, sources: list[Stage]) -> None:
    """The stage as the organiser set it up makes sense (messages name the field)."""
    if stage.kind not in KINDS:
        raise StageError(_("The kind must be one of %(kinds)s."), "kind", kinds=", ".join(KINDS))
    if not (stage.name or "").strip():
        raise StageError(_("Give the stage a name."), "name")
    if stage.kind == Stage.Kind.SWISS and not stage.num_rounds:
        raise StageError(_("A Swiss stage needs its number of rounds."), "num_rounds")
    if stage.kind != Stage.Kind.SWISS and stage.num_rounds:
        raise StageError(
            _(
                "Only a Swiss stage has a number of rounds (a round robin's or a "
                "knockout's field decides)."
            ),
            "num_rounds",
        )
    if stage.third_place and stage.kind != Stage.Kind.KNOCKOUT:
        raise StageError(_("Only a knockout has a third-place match."), "third_place")
    if stage.entrants not in Stage.Entrants.values:
        raise StageError(_("The entrants must be all teams or qualifiers."), "entrants")
    if stage.entrants == Stage.Entrants.QUALIFIED:
        if not stage.qualify_top:
            raise StageError(_("Say how many teams of each section qualify."), "qualify_top")
        if not sources:
            raise StageError(_("Choose the earlier stage(s) the qualifiers come from."), "sources")
        later = [s for s in sources if s.event_id != stage.event_id or s.order >= stage.order]
        if later:
            raise StageError(
                _("Qualifiers come from earlier stages of this event only."), "sources"
            )
    else:
        if stage.qualify_top:
            raise StageError(
                _("Only a stage of qualifiers takes the top teams of each section."), "qualify_top"
            )
        if sources:
            raise StageError(_("A stage of all teams has no qualifying stages."), "sources")
    if stage.carry_points and stage.kind == Stage.Kind.KNOCKOUT:
        raise StageError(_("A knockout does not carry points."), "carry_points")
    try:
        check_json(stage.match_format, "match_format")
    except BadInput as err:
        raise StageError.from_error(err) from None
    if not isinstance(stage.match_format, dict):
        raise StageError(
            _("The match format must be an object (end, deals, minutes, games)."), "match_format"
        )
    try:
        stage.engine_format()
    except RulesError as err:
        raise StageError.from_rules(err, "match_format") from None


def create_stage(
    event: Event,
    user,
    *,
    name: str,
    kind: str,
    num_rounds=None,
    match_format: dict | None = None,
    entrants: str = Stage.Entrants.ALL,
    qualify_top=None,
    sources=(),
    carry_points: bool = False,
    third_place: bool = False,
    source: str = "",
) -> Stage:
    """Add a stage after the event's last one."""
    permissions.require(user, event, "stage.manage", StageForbidden)
    with transaction.atomic():
        Event.objects.select_for_update(no_key=True).filter(pk=event.pk).first()
        if event.rounds.filter(stage__isnull=True).exists():
            raise StageError(
                _("This event's rounds were drawn without stages: it stays one Swiss stage."),
                "stage",
                Code.CONFLICT,
            )
        last = event.stages.aggregate(last=Max("order"))["last"] or 0
        stage = Stage(
            event=event,
            order=last + 1,
            name=(name or "").strip(),
            kind=kind,
            num_rounds=_whole(num_rounds, "num_rounds"),
            match_format=match_format or {},
            entrants=entrants or Stage.Entrants.ALL,
            qualify_top=_whole(qualify_top, "qualify_top"),
            carry_points=bool(carry_points),
            third_place=bool(third_place),
        )
        found = _sources(event, sources)
        _check(stage, found)
        if event.stages.filter(name=stage.name).exists():
            raise StageError(
                _("This event already has a stage named %(name)s."), "name", name=stage.name
            )
        stage.save()
        stage.sources.set(found)
        log_action(event, user, "stage.create", stage, data=describe(stage), source=source)
    return stage


def _sources(event: Event, sources) -> list[Stage]:
    ids = [getattr(item, "pk", item) for item in sources or ()]
    found = list(Stage.objects.filter(event=event, pk__in=ids).order_by("order"))
    if len(found) != len(set(ids)):
        raise StageError(_("Qualifiers come from earlier stages of this event only."), "sources")
    return found


EDITABLE = (
    "name",
    "kind",
    "num_rounds",
    "match_format",
    "entrants",
    "qualify_top",
    "carry_points",
    "third_place",
)


def update_stage(stage: Stage, user, source: str = "", **changes) -> Stage:
    """Change a stage's settings; once it has a round only its name may change."""
    event = stage.event
    permissions.require(user, event, "stage.manage", StageForbidden)
    unknown = [key for key in changes if key not in (*EDITABLE, "sources")]
    if unknown:
        raise StageError(_("%(field)s cannot be changed."), unknown[0], field=unknown[0])
    with transaction.atomic():
        stage = Stage.objects.select_for_update(no_key=True).get(pk=stage.pk)
        before = describe(stage)
        if has_rounds(stage) and set(changes) - {"name"}:
            raise StageError(
                _("The stage %(stage)s has rounds: only its name can change now."),
                sorted(set(changes) - {"name"})[0],
                stage=stage.name,
            )
        for key, value in changes.items():
            if key in ("num_rounds", "qualify_top"):
                value = _whole(value, key)
            elif key in ("carry_points", "third_place"):
                value = bool(value)
            elif key == "name":
                value = (value or "").strip()
            elif key == "match_format":
                value = value or {}
            if key != "sources":
                setattr(stage, key, value)
        found = (
            _sources(event, changes["sources"])
            if "sources" in changes
            else list(stage.sources.order_by("order"))
        )
        _check(stage, found)
        if event.stages.filter(name=stage.name).exclude(pk=stage.pk).exists():
            raise StageError(
                _("This event already has a stage named %(name)s."), "name", name=stage.name
            )
        stage.save()
        stage.sources.set(found)
        log_action(
            event,
            user,
            "stage.update",
            stage,
            data={"before": before, "after": describe(stage)},
            source=source,
        )
    return stage


def delete_stage(stage: Stage, user, source: str = "") -> None:
    """Remove a stage that has no round and feeds no other stage."""
    event = stage.event
    permissions.require(user, event, "stage.manage", StageForbidden)
    with transaction.atomic():
        if has_rounds(stage):
            raise StageError(
                _("The stage %(stage)s has rounds: it cannot be removed."),
                "stage",
                stage=stage.name,
            )
        if stage.feeds.exists():
            raise StageError(
                _("The stage %(stage)s feeds a later stage: remove that first."),
                "stage",
                stage=stage.name,
            )
        log_action(event, user, "stage.delete", stage, data=describe(stage), source=source)
        stage.delete()


def describe(stage: Stage) -> dict:
    return {
        "name": stage.name,
        "order": stage.order,
        "kind": stage.kind,
        "num_rounds": stage.num_rounds,
        "match_format": stage.match_format,
        "entrants": stage.entrants,
        "qualify_top": stage.qualify_top,
        "sources": [s.pk for s in stage.sources.all()] if stage.pk else [],
        "carry_points": stage.carry_points,
        "third_place": stage.third_place,
    }
