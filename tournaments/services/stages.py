"""Stages and sections: set them up, put the teams in, seed a stage from earlier ones.

SPEC §2 "stages and sections". The organiser (``stage.manage``) creates an event's stages in
order, each with its kind, match format (checked by the rules engine) and entrants, and the
sections of each stage; teams go into sections by hand or split by seed (in turn or snake).
A stage fed by earlier ones takes the top N of each of their sections
(:func:`stage_entrants`, seeded 1 v N across sections by ``pairing.knockout.seed_from_sections``).
Drawing a stage's rounds is ``tournaments.services.stage_rounds``; standings per section and
stage ``tournaments.services.stage_standings``.

Nothing about a stage's field can change once it has a round: the draw, the standings and
the bracket read it. Every change is in the audit log.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy as _

from rules_engine.errors import RulesError
from tournaments import permissions
from tournaments.errors import Forbidden, NotFound, ServiceError
from tournaments.models import CheckIn, Round, Section, SectionEntry, Stage, Team, Tournament
from tournaments.pairing.knockout import seed_from_sections
from tournaments.services.audit import log_action
from tournaments.standings.service import invalidate
from tournaments.validation import BadInput, check_json

KINDS = tuple(Stage.Kind.values)
SPLITS = ("in_turn", "snake")


class StageError(ServiceError):
    """A stage or section step that cannot be done; ``field`` names the input at fault."""


class StageForbidden(StageError, Forbidden):
    """The user may not set up stages in this event."""


class StageNotFound(StageError, NotFound):
    """No such stage or section in this event."""


# --- reading ------------------------------------------------------------------------------


def stages_of(tournament: Tournament) -> list[Stage]:
    return list(tournament.stages.order_by("order").prefetch_related("sources", "sections"))


def get_stage(tournament: Tournament, stage_id) -> Stage:
    try:
        pk = int(stage_id)
    except (TypeError, ValueError):
        pk = None
    stage = None if pk is None else Stage.objects.filter(tournament=tournament, pk=pk).first()
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
        raise StageNotFound(_("This stage has no section %(section)s."), "section",
                            section=section_id)  # fmt: skip
    return section


def section_teams(section: Section) -> list[int]:
    """The section's team ids in seed order."""
    return list(section.entries.order_by("seed").values_list("team_id", flat=True))


def has_rounds(stage: Stage) -> bool:
    return Round.objects.filter(stage=stage).exists()


def previous_stages(stage: Stage) -> list[Stage]:
    return list(Stage.objects.filter(tournament=stage.tournament_id, order__lt=stage.order))


# --- stages -------------------------------------------------------------------------------


def _whole(value, field: str, minimum: int = 1) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise StageError(_("%(field)s must be a whole number."), field, field=field)
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise StageError(_("%(field)s must be a whole number."), field, field=field) from None
    if not minimum <= number <= 999:
        raise StageError(_("%(field)s must be from %(min)s to 999."), field, field=field,
                         min=minimum)  # fmt: skip
    return number


def _check(stage: Stage, sources: list[Stage]) -> None:
    """The stage as the organiser set it up makes sense (messages name the field)."""
    if stage.kind not in KINDS:
        raise StageError(_("The kind must be one of %(kinds)s."), "kind", kinds=", ".join(KINDS))
    if not (stage.name or "").strip():
        raise StageError(_("Give the stage a name."), "name")
    if stage.kind == Stage.Kind.SWISS and not stage.num_rounds:
        raise StageError(_("A Swiss stage needs its number of rounds."), "num_rounds")
    if stage.kind != Stage.Kind.SWISS:
        stage.num_rounds = None  # the field decides (Berger tables, bracket size)
    if stage.third_place and stage.kind != Stage.Kind.KNOCKOUT:
        raise StageError(_("Only a knockout has a third-place match."), "third_place")
    if stage.entrants not in Stage.Entrants.values:
        raise StageError(_("The entrants must be all teams or qualifiers."), "entrants")
    if stage.entrants == Stage.Entrants.QUALIFIED:
        if not stage.qualify_top:
            raise StageError(_("Say how many teams of each section qualify."), "qualify_top")
        if not sources:
            raise StageError(_("Choose the earlier stage(s) the qualifiers come from."), "sources")
        later = [
            s for s in sources if s.tournament_id != stage.tournament_id or s.order >= stage.order
        ]
        if later:
            raise StageError(_("Qualifiers come from earlier stages of this event only."),
                             "sources")  # fmt: skip
    else:
        stage.qualify_top = None
        if sources:
            raise StageError(_("A stage of all teams has no qualifying stages."), "sources")
    if stage.carry_points and stage.kind == Stage.Kind.KNOCKOUT:
        raise StageError(_("A knockout does not carry points."), "carry_points")
    try:
        check_json(stage.match_format, "match_format")
    except BadInput as err:
        raise StageError(err.message, err.field) from None
    if not isinstance(stage.match_format, dict):
        raise StageError(_("The match format must be an object (end, deals, minutes, games)."),
                         "match_format")  # fmt: skip
    try:
        stage.engine_format()
    except RulesError as err:
        raise StageError.from_rules(err, "match_format") from None


def create_stage(
    tournament: Tournament,
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
    permissions.require(user, tournament, "stage.manage", StageForbidden)
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        if tournament.rounds.filter(stage__isnull=True).exists():
            raise StageError(_("This event's rounds were drawn without stages: it stays one "
                               "Swiss stage."), "stage")  # fmt: skip
        last = tournament.stages.aggregate(last=Max("order"))["last"] or 0
        stage = Stage(
            tournament=tournament, order=last + 1, name=(name or "").strip(), kind=kind,
            num_rounds=_whole(num_rounds, "num_rounds"), match_format=match_format or {},
            entrants=entrants or Stage.Entrants.ALL,
            qualify_top=_whole(qualify_top, "qualify_top"),
            carry_points=bool(carry_points), third_place=bool(third_place),
        )  # fmt: skip
        found = _sources(tournament, sources)
        _check(stage, found)
        if tournament.stages.filter(name=stage.name).exists():
            raise StageError(_("This event already has a stage named %(name)s."), "name",
                             name=stage.name)  # fmt: skip
        stage.save()
        stage.sources.set(found)
        log_action(tournament, user, "stage.create", stage, data=describe(stage), source=source)
        invalidate(tournament)
    return stage


def _sources(tournament: Tournament, sources) -> list[Stage]:
    ids = [getattr(item, "pk", item) for item in sources or ()]
    found = list(Stage.objects.filter(tournament=tournament, pk__in=ids).order_by("order"))
    if len(found) != len(set(ids)):
        raise StageError(_("Qualifiers come from earlier stages of this event only."), "sources")
    return found


EDITABLE = ("name", "kind", "num_rounds", "match_format", "entrants", "qualify_top",
            "carry_points", "third_place")  # fmt: skip


def update_stage(stage: Stage, user, source: str = "", **changes) -> Stage:
    """Change a stage's settings; once it has a round only its name may change."""
    tournament = stage.tournament
    permissions.require(user, tournament, "stage.manage", StageForbidden)
    unknown = [key for key in changes if key not in (*EDITABLE, "sources")]
    if unknown:
        raise StageError(_("%(field)s cannot be changed."), unknown[0], field=unknown[0])
    with transaction.atomic():
        stage = Stage.objects.select_for_update().get(pk=stage.pk)
        before = describe(stage)
        if has_rounds(stage) and set(changes) - {"name"}:
            raise StageError(_("The stage %(stage)s has rounds: only its name can change now."),
                             sorted(set(changes) - {"name"})[0], stage=stage.name)  # fmt: skip
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
            _sources(tournament, changes["sources"])
            if "sources" in changes
            else list(stage.sources.order_by("order"))
        )
        _check(stage, found)
        if tournament.stages.filter(name=stage.name).exclude(pk=stage.pk).exists():
            raise StageError(_("This event already has a stage named %(name)s."), "name",
                             name=stage.name)  # fmt: skip
        stage.save()
        stage.sources.set(found)
        log_action(tournament, user, "stage.update", stage,
                   data={"before": before, "after": describe(stage)}, source=source)  # fmt: skip
        invalidate(tournament)
    return stage


def delete_stage(stage: Stage, user, source: str = "") -> None:
    """Remove a stage that has no round and feeds no other stage."""
    tournament = stage.tournament
    permissions.require(user, tournament, "stage.manage", StageForbidden)
    with transaction.atomic():
        if has_rounds(stage):
            raise StageError(_("The stage %(stage)s has rounds: it cannot be removed."), "stage",
                             stage=stage.name)  # fmt: skip
        if stage.feeds.exists():
            raise StageError(_("The stage %(stage)s feeds a later stage: remove that first."),
                             "stage", stage=stage.name)  # fmt: skip
        log_action(tournament, user, "stage.delete", stage, data=describe(stage), source=source)
        stage.delete()
        invalidate(tournament)


def describe(stage: Stage) -> dict:
    return {
        "name": stage.name, "order": stage.order, "kind": stage.kind,
        "num_rounds": stage.num_rounds, "match_format": stage.match_format,
        "entrants": stage.entrants, "qualify_top": stage.qualify_top,
        "sources": [s.pk for s in stage.sources.all()] if stage.pk else [],
        "carry_points": stage.carry_points, "third_place": stage.third_place,
    }  # fmt: skip


# --- sections -----------------------------------------------------------------------------


def _require_no_rounds(stage: Stage) -> None:
    if has_rounds(stage):
        raise StageError(
            _("The stage %(stage)s has rounds: its sections and teams can no longer change."),
            "stage",
            stage=stage.name,
        )


def create_section(stage: Stage, user, name: str, source: str = "") -> Section:
    tournament = stage.tournament
    permissions.require(user, tournament, "stage.manage", StageForbidden)
    name = (name or "").strip()
    if not name:
        raise StageError(_("Give the section a name."), "name")
    with transaction.atomic():
        Stage.objects.select_for_update().filter(pk=stage.pk).first()
        _require_no_rounds(stage)
        if stage.sections.filter(name=name).exists():
            raise StageError(_("This stage already has a section named %(name)s."), "name",
                             name=name)  # fmt: skip
        last = stage.sections.aggregate(last=Max("order"))["last"] or 0
        section = Section.objects.create(stage=stage, name=name, order=last + 1)
        log_action(tournament, user, "section.create", section,
                   data={"stage": stage.pk, "name": name}, source=source)  # fmt: skip
        invalidate(tournament)
    return section


def delete_section(section: Section, user, source: str = "") -> None:
    stage = section.stage
    permissions.require(user, stage.tournament, "stage.manage", StageForbidden)
    with transaction.atomic():
        _require_no_rounds(stage)
        log_action(stage.tournament, user, "section.delete", section,
                   data={"stage": stage.pk, "name": section.name,
                         "teams": section_teams(section)}, source=source)  # fmt: skip
        section.delete()
        invalidate(stage.tournament)


def _team_ids(tournament: Tournament, teams) -> list[int]:
    ids = [getattr(team, "pk", team) for team in teams]
    if len(set(ids)) != len(ids):
        raise StageError(_("A team is listed twice."), "teams")
    wrong = [team for team in ids if not isinstance(team, int) or not 0 < team < 2**31]
    if wrong:
        raise StageError(_("Team %(team)s is not in this event."), "teams", team=wrong[0])
    known = set(Team.objects.filter(tournament=tournament, pk__in=ids).values_list("pk", flat=True))
    missing = [team for team in ids if team not in known]
    if missing:
        raise StageError(_("Team %(team)s is not in this event."), "teams", team=missing[0])
    return ids


def assign_teams(section: Section, user, teams, source: str = "") -> list[int]:
    """Put ``teams`` (in this order) at the end of ``section``; a team already in another
    section of the stage moves. Only entrants of the stage may go in."""
    stage = section.stage
    tournament = stage.tournament
    permissions.require(user, tournament, "stage.manage", StageForbidden)
    with transaction.atomic():
        Stage.objects.select_for_update().filter(pk=stage.pk).first()
        _require_no_rounds(stage)
        ids = _team_ids(tournament, teams)
        allowed = set(stage_entrants(stage))
        outside = [team for team in ids if team not in allowed]
        if outside:
            name = Team.objects.get(pk=outside[0]).name
            raise StageError(_("%(team)s is not an entrant of the stage %(stage)s."), "teams",
                             team=name, stage=stage.name)  # fmt: skip
        moved = list(
            SectionEntry.objects.filter(stage=stage, team_id__in=ids)
            .exclude(section=section)
            .values_list("team_id", "section_id")
        )
        SectionEntry.objects.filter(stage=stage, team_id__in=ids).delete()
        _renumber(stage)
        _append(section, ids)
        log_action(tournament, user, "section.assign", section,
                   data={"stage": stage.pk, "teams": ids, "moved_from": moved},
                   source=source)  # fmt: skip
        invalidate(tournament)
    return section_teams(section)


def remove_teams(section: Section, user, teams, source: str = "") -> list[int]:
    stage = section.stage
    permissions.require(user, stage.tournament, "stage.manage", StageForbidden)
    with transaction.atomic():
        _require_no_rounds(stage)
        ids = _team_ids(stage.tournament, teams)
        section.entries.filter(team_id__in=ids).delete()
        _renumber(stage)
        log_action(stage.tournament, user, "section.remove", section,
                   data={"stage": stage.pk, "teams": ids}, source=source)  # fmt: skip
        invalidate(stage.tournament)
    return section_teams(section)


def _append(section: Section, ids: list[int]) -> None:
    start = section.entries.aggregate(last=Max("seed"))["last"] or 0
    SectionEntry.objects.bulk_create(
        SectionEntry(section=section, stage_id=section.stage_id, team_id=team, seed=start + i)
        for i, team in enumerate(ids, start=1)
    )


def _renumber(stage: Stage) -> None:
    """Seeds 1..n in each section again after teams left it (order kept)."""
    for section in stage.sections.all():
        entries = list(section.entries.order_by("seed"))
        changed = [e for i, e in enumerate(entries, start=1) if e.seed != i]
        if not changed:
            continue
        # two passes: the unique (section, seed) holds between the statements
        for i, entry in enumerate(entries, start=1):
            entry.seed = 100000 + i
        SectionEntry.objects.bulk_update(entries, ["seed"])
        for i, entry in enumerate(entries, start=1):
            entry.seed = i
        SectionEntry.objects.bulk_update(entries, ["seed"])


def split_order(teams: list, sections: int, method: str) -> list[list]:
    """Deal ``teams`` (best seed first) into ``sections`` groups: ``in_turn`` (1→A, 2→B,
    3→A …) or ``snake`` (1→A, 2→B, 3→B, 4→A …, the serpentine that evens the seeds out)."""
    groups: list[list] = [[] for _ in range(sections)]
    for index, team in enumerate(teams):
        lap, place = divmod(index, sections)
        if method == "snake" and lap % 2:
            place = sections - 1 - place
        groups[place].append(team)
    return groups


def split_teams(stage: Stage, user, method: str = "snake", source: str = "") -> dict[int, list]:
    """Put every entrant of the stage into its sections by seed (replacing what was there).
    A stage without a section gets one, named after the stage."""
    tournament = stage.tournament
    permissions.require(user, tournament, "stage.manage", StageForbidden)
    if method not in SPLITS:
        raise StageError(_("Split in turn or snake."), "method")
    with transaction.atomic():
        Stage.objects.select_for_update().filter(pk=stage.pk).first()
        _require_no_rounds(stage)
        entrants = stage_entrants(stage)
        if len(entrants) < 2:
            raise StageError(_("The stage %(stage)s has fewer than two entrants."), "stage",
                             stage=stage.name)  # fmt: skip
        sections = list(stage.sections.order_by("order"))
        if not sections:
            sections = [Section.objects.create(stage=stage, name=stage.name, order=1)]
        SectionEntry.objects.filter(stage=stage).delete()
        groups = split_order(entrants, len(sections), method)
        for section, group in zip(sections, groups, strict=True):
            _append(section, group)
        placed = {section.pk: group for section, group in zip(sections, groups, strict=True)}
        log_action(tournament, user, "section.split", stage,
                   data={"method": method, "sections": placed}, source=source)  # fmt: skip
        invalidate(tournament)
    return placed


# --- entrants -----------------------------------------------------------------------------


def registered_entrants(tournament: Tournament) -> list[int]:
    """Every active team that may play (checked in, once the event uses check-in), best seed
    first (teams without a seed after the seeded ones, in registration order)."""
    teams = Team.objects.filter(tournament=tournament, status=Team.Status.ACTIVE)
    if CheckIn.objects.filter(team__tournament=tournament).exists():
        teams = teams.filter(checkin__isnull=False)
    rows = teams.values_list("pk", "seed")
    return [pk for pk, seed in sorted(rows, key=lambda row: (row[1] is None, row[1] or 0, row[0]))]


def stage_entrants(stage: Stage) -> list[int]:
    """The stage's entrants in seed order. For qualifiers: the top ``qualify_top`` of each
    section of the source stages, interleaved by place (A1 B1 A2 B2 …), so that a bracket
    seeded 1 v N meets teams of one section as late as it can; withdrawn teams are passed
    over (the next in their section's ranking goes through)."""
    if stage.entrants == Stage.Entrants.ALL:
        return registered_entrants(stage.tournament)
    from tournaments.services import stage_standings

    active = set(
        Team.objects.filter(tournament=stage.tournament_id, status=Team.Status.ACTIVE).values_list(
            "pk", flat=True
        )
    )
    rankings = []
    for source_stage in stage.sources.order_by("order"):
        for section in source_stage.sections.order_by("order"):
            ranking = stage_standings.section_ranking(section)
            rankings.append([team for team in ranking if team in active])
    if not rankings:
        return []
    top = min(stage.qualify_top, *(len(ranking) for ranking in rankings))
    if top < 1:
        return []
    return seed_from_sections(rankings, top)


def seed_stage(stage: Stage, user, source: str = "") -> dict[int, list]:
    """Fill a stage's sections from its entrants: one section (made if there is none) takes
    them in seed order; several are filled snake-wise. Refused while a source stage is not
    finished (its ranking is not final)."""
    from tournaments.services import stage_standings

    if stage.entrants == Stage.Entrants.QUALIFIED:
        unfinished = [s.name for s in stage.sources.all() if not stage_standings.is_complete(s)]
        if unfinished:
            raise StageError(
                _("The stage %(stage)s is not finished: its qualifiers are not known yet."),
                "sources",
                stage=unfinished[0],
            )
    return split_teams(stage, user, "snake", source)
