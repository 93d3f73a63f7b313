"""Sections of a stage and the teams in them; who enters a stage.

SPEC §2 "stages and sections". The organiser (``stage.manage``) adds the sections of a stage
(set up in ``tournaments.services.stages``) and puts teams into them by hand or split by seed
(in turn or snake). A stage of all teams takes every active (checked-in) team; a stage fed by
earlier ones takes the top N of each of their sections (:func:`stage_entrants`, seeded 1 v N
across sections by ``pairing.knockout.seed_from_sections``), once those stages are finished
(:func:`seed_stage`).

A stage's sections and their teams cannot change once it has a round. Every change is in the
audit log.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy as _

from tournaments import permissions
from tournaments.models import Event, Section, SectionEntry, Stage, Team
from tournaments.pairing.knockout import seed_from_sections
from tournaments.services import stage_standings
from tournaments.services.audit import log_action
from tournaments.services.stage_standings import registered_entrants

from .stages import StageError, StageForbidden, has_rounds, section_teams

SPLITS = ("in_turn", "snake")


# --- sections -----------------------------------------------------------------------------


def _require_no_rounds(stage: Stage) -> None:
    if has_rounds(stage):
        raise StageError(
            _("The stage %(stage)s has rounds: its sections and teams can no longer change."),
            "stage",
            stage=stage.name,
        )


def create_section(stage: Stage, user, name: str, source: str = "") -> Section:
    event = stage.event
    permissions.require(user, event, "stage.manage", StageForbidden)
    name = (name or "").strip()
    if not name:
        raise StageError(_("Give the section a name."), "name")
    with transaction.atomic():
        Stage.objects.select_for_update(no_key=True).filter(pk=stage.pk).first()
        _require_no_rounds(stage)
        if stage.sections.filter(name=name).exists():
            raise StageError(
                _("This stage already has a section named %(name)s."), "name", name=name
            )
        last = stage.sections.aggregate(last=Max("order"))["last"] or 0
        section = Section.objects.create(stage=stage, name=name, order=last + 1)
        log_action(
            event,
            user,
            "section.create",
            section,
            data={"stage": stage.pk, "name": name},
            source=source,
        )
    return section


def delete_section(section: Section, user, source: str = "") -> None:
    stage = section.stage
    permissions.require(user, stage.event, "stage.manage", StageForbidden)
    with transaction.atomic():
        _require_no_rounds(stage)
        log_action(
            stage.event,
            user,
            "section.delete",
            section,
            data={"stage": stage.pk, "name": section.name, "teams": section_teams(section)},
            source=source,
        )
        section.delete()


def _team_ids(event: Event, teams) -> list[int]:
    ids = [getattr(team, "pk", team) for team in teams]
    if len(set(ids)) != len(ids):
        raise StageError(_("A team is listed twice."), "teams")
    wrong = [team for team in ids if not isinstance(team, int) or not 0 < team < 2**31]
    if wrong:
        raise StageError(_("Team %(team)s is not in this event."), "teams", team=wrong[0])
    known = set(Team.objects.filter(event=event, pk__in=ids).values_list("pk", flat=True))
    missing = [team for team in ids if team not in known]
    if missing:
        raise StageError(_("Team %(team)s is not in this event."), "teams", team=missing[0])
    return ids


def assign_teams(section: Section, user, teams, source: str = "") -> list[int]:
    """Put ``teams`` (in this order) at the end of ``section``; a team already in another
    section of the stage moves. Only entrants of the stage may go in."""
    stage = section.stage
    event = stage.event
    permissions.require(user, event, "stage.manage", StageForbidden)
    with transaction.atomic():
        Stage.objects.select_for_update(no_key=True).filter(pk=stage.pk).first()
        _require_no_rounds(stage)
        ids = _team_ids(event, teams)
        allowed = set(stage_entrants(stage))
        outside = [team for team in ids if team not in allowed]
        if outside:
            name = Team.objects.get(pk=outside[0]).name
            raise StageError(
                _("%(team)s is not an entrant of the stage %(stage)s."),
                "teams",
                team=name,
                stage=stage.name,
            )
        moved = list(
            SectionEntry.objects.filter(stage=stage, team_id__in=ids)
            .exclude(section=section)
            .values_list("team_id", "section_id")
        )
        SectionEntry.objects.filter(stage=stage, team_id__in=ids).delete()
        _renumber(stage)
        _append(section, ids)
        log_action(
            event,
            user,
            "section.assign",
            section,
            data={"stage": stage.pk, "teams": ids, "moved_from": moved},
            source=source,
        )
    return section_teams(section)


def remove_teams(section: Section, user, teams, source: str = "") -> list[int]:
    stage = section.stage
    permissions.require(user, stage.event, "stage.manage", StageForbidden)
    with transaction.atomic():
        _require_no_rounds(stage)
        ids = _team_ids(stage.event, teams)
        section.entries.filter(team_id__in=ids).delete()
        _renumber(stage)
        log_action(
            stage.event,
            user,
            "section.remove",
            section,
            data={"stage": stage.pk, "teams": ids},
            source=source,
        )
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
    event = stage.event
    permissions.require(user, event, "stage.manage", StageForbidden)
    if method not in SPLITS:
        raise StageError(_("Split in turn or snake."), "method")
    with transaction.atomic():
        Stage.objects.select_for_update(no_key=True).filter(pk=stage.pk).first()
        _require_no_rounds(stage)
        entrants = stage_entrants(stage)
        if len(entrants) < 2:
            raise StageError(
                _("The stage %(stage)s has fewer than two entrants."), "stage", stage=stage.name
            )
        sections = list(stage.sections.order_by("order"))
        if not sections:
            sections = [Section.objects.create(stage=stage, name=stage.name, order=1)]
        SectionEntry.objects.filter(stage=stage).delete()
        groups = split_order(entrants, len(sections), method)
        for section, group in zip(sections, groups, strict=True):
            _append(section, group)
        placed = {section.pk: group for section, group in zip(sections, groups, strict=True)}
        log_action(
            event,
            user,
            "section.split",
            stage,
            data={"method": method, "sections": placed},
            source=source,
        )
    return placed


# --- entrants -----------------------------------------------------------------------------


def stage_entrants(stage: Stage) -> list[int]:
    """The stage's entrants in seed order. For qualifiers: the top ``qualify_top`` of each
    section of the source stages, interleaved by place (A1 B1 A2 B2 …), so that a bracket
    seeded 1 v N meets teams of one section as late as it can; withdrawn teams are passed
    over (the next in their section's ranking goes through)."""
    if stage.entrants == Stage.Entrants.ALL:
        return registered_entrants(stage.event)

    active = set(
        Team.objects.filter(event=stage.event_id, status=Team.Status.ACTIVE).values_list(
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

    if stage.entrants == Stage.Entrants.QUALIFIED:
        unfinished = [s.name for s in stage.sources.all() if not stage_standings.is_complete(s)]
        if unfinished:
            raise StageError(
                _("The stage %(stage)s is not finished: its qualifiers are not known yet."),
                "sources",
                stage=unfinished[0],
            )
        from tournaments.services import lots

        lots.require_no_cut_tie(lots.stage_cut_ties(stage))  # ties at the line: lots first
    return split_teams(stage, user, "snake", source)


# --- late entries -------------------------------------------------------------------------


def late_entry_section(team: Team, section_id=None) -> Section | None:
    """Where a team checking in now joins a staged event (SPEC §2: a late check-in joins
    from the next round): the current stage's section (chosen by the organiser when the
    stage has several), or None when no stage has been seeded yet (the team enters the
    stage with everybody when its first round is drawn). Refused, with the reason, when
    the current stage cannot take a team any more (qualifiers only, a fixed knockout or
    round-robin field, every stage over). Nothing is written."""
    event = team.event
    if not event.stages.exists():
        return None
    stage = stage_standings.current_stage(event)
    if stage is None:
        raise StageError(
            _("Every stage of this event is over: %(team)s cannot join now."),
            "team",
            team=team.name,
        )
    entry = SectionEntry.objects.filter(stage=stage, team=team).select_related("section").first()
    if entry is not None:
        return entry.section
    if not stage.entries.exists():
        return None
    if stage.entrants == Stage.Entrants.QUALIFIED:
        raise StageError(
            _(
                "The stage %(stage)s takes the qualifiers of the earlier stages only: "
                "%(team)s, not among them, cannot join it."
            ),
            "team",
            stage=stage.name,
            team=team.name,
        )
    if stage.kind != Stage.Kind.SWISS:
        raise StageError(
            _(
                "The stage %(stage)s is a %(kind)s: its field is fixed once drawn, so "
                "%(team)s cannot join it."
            ),
            "team",
            stage=stage.name,
            kind=stage.get_kind_display(),
            team=team.name,
        )
    sections = list(stage.sections.order_by("order"))
    if section_id in (None, ""):
        if len(sections) == 1:
            return sections[0]
        raise StageError(
            _("The stage %(stage)s has %(count)s sections: choose the one %(team)s joins."),
            "section",
            stage=stage.name,
            count=len(sections),
            team=team.name,
        )
    chosen = next((s for s in sections if str(s.pk) == str(section_id)), None)
    if chosen is None:
        raise StageError(_("This stage has no section %(section)s."), "section", section=section_id)
    return chosen


def add_late_entry(section: Section, team: Team, user, source: str = "") -> None:
    """Put a team checking in late into a stage already under way (last seed of its
    section); it is paired from the stage's next draw. Logged."""
    if SectionEntry.objects.filter(stage=section.stage_id, team=team).exists():
        return
    _append(section, [team.pk])
    log_action(
        team.event,
        user,
        "stage.late_entry",
        section.stage,
        data={
            "team": team.pk,
            "name": team.name,
            "section": section.pk,
            "section_name": section.name,
        },
        source=source,
    )
