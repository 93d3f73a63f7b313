"""Check-in, leaves and seating: who is here, who is excused, who is late (SPEC §2).

- Before round 1 the organiser checks teams in (by list, by a team's badge QR, by import).
  Once any team of the event has checked in, every draw takes only checked-in teams; a team
  checking in after round 1 is a late entry and joins from the next draw (0 points so far).
  An event that never uses check-in draws every active team.
- A leave (请假) for round n is either "misses the round" (not paired, 0 points, not a bye)
  or "may arrive late" (15 minutes instead of 10 before the forfeit).
- Each round the table referee marks each team seated (已入座, from the table page). At start
  + the late limit (``rules_engine.ladder.is_late``) the chief referee sees every team not
  seated at a table where nothing was entered, ticks the teams that are absent and confirms
  them in one action; a forfeit is per team (its opponent gets the preset's forfeit win) and
  is an ordinary result version (the results service's ``mark_absent``), so it is versioned,
  audited and can be corrected like any result.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules_engine import ladder, seating
from tournaments import permissions
from tournaments.models import CheckIn, Event, Match, Round, RoundLeave, Seating, Team
from tournaments.services import events
from tournaments.services.audit import log_action
from tournaments.services.rounds import RoundError, RoundForbidden
from tournaments.validation import whole_number

Kind = RoundLeave.Kind


def _name(user) -> str:
    return getattr(user, "username", "") or ""


def require(user, event: Event, action: str, what: str) -> None:
    """Refused (403) unless ``user`` may do ``action`` (the permission table) here."""
    permissions.require(user, event, action, RoundForbidden, what=what)


# --- check-in -----------------------------------------------------------------------------


def uses_checkin(event: Event) -> bool:
    return CheckIn.objects.filter(team__event=event).exists()


def checked_in_ids(event: Event) -> set[int]:
    return set(CheckIn.objects.filter(team__event=event).values_list("team_id", flat=True))


def check_in(teams, user, via: str = CheckIn.Via.LIST, section=None) -> int:
    """Check ``teams`` in (idempotent: a team already in stays as it was); the number new.
    In an event in stages a team checking in while a stage is under way joins that stage
    from its next round (``section``: the one it joins when the stage has several), or the
    check-in is refused with the reason (stage_sections.late_entry_section)."""
    from tournaments.services import stage_sections

    teams = list(teams)
    if not teams:
        return 0
    event = teams[0].event
    require(user, event, "team.check_in", _("check teams in"))
    done = 0
    with transaction.atomic():
        present = checked_in_ids(event)
        for team in teams:
            if team.pk in present or team.event_id != event.pk:
                continue
            joins = stage_sections.late_entry_section(team, section)  # StageError: refused
            CheckIn.objects.create(team=team, via=via, by_name=_name(user))
            if joins is not None:
                stage_sections.add_late_entry(joins, team, user)
            events.advance(event, Event.Status.CHECK_IN)
            log_action(event, user, "team.check_in", team, data={"via": via})
            done += 1
    return done


def undo_check_in(team: Team, user, reason: str = "") -> None:
    require(user, team.event, "team.check_in", _("check teams in"))
    with transaction.atomic():
        deleted, _rows = CheckIn.objects.filter(team=team).delete()
        if deleted:
            log_action(team.event, user, "team.check_out", team, reason=reason)


# --- leaves -------------------------------------------------------------------------------


def grant_leave(team: Team, round_number: int, kind: str, user, reason: str) -> RoundLeave:
    """Record a leave approved in advance (organiser or chief referee), with its reason."""
    event = team.event
    require(user, event, "team.leave", _("grant a leave"))
    if kind not in Kind.values:
        raise RoundError(_("Choose the kind of leave."), "kind")
    if not isinstance(reason, str) or not reason.strip():
        raise RoundError(_("Give a reason: it goes in the audit log."), "reason")
    try:
        number = int(round_number)
    except (TypeError, ValueError):
        number = 0
    if not 1 <= number <= event.num_rounds:
        raise RoundError(
            _("The round must be from 1 to %(count)s."),
            "round",
            count=event.num_rounds,
        )
    played = event.rounds.filter(number=number).exclude(status=Round.Status.DRAFT)
    if kind == Kind.MISS_ROUND and played.exists():
        raise RoundError(
            _("Round %(number)s is already published: a leave to miss it comes too late."),
            "round",
            number=number,
        )
    try:
        with transaction.atomic():
            leave = RoundLeave.objects.create(
                team=team,
                round_number=number,
                kind=kind,
                reason=reason.strip(),
                by_name=_name(user),
            )
            log_action(
                event, user, f"team.leave.{kind}", team, data={"round": number}, reason=reason
            )
    except IntegrityError:
        raise RoundError(
            _("%(team)s already has a leave for round %(number)s."),
            "round",
            team=team.name,
            number=number,
        ) from None
    return leave


# --- seating and lateness -----------------------------------------------------------------


SIDES = (seating.HOME, seating.AWAY)


def _side_teams(match: Match) -> dict[str, Team]:
    return seating.by_side(match.home, match.away)


def seating_of(match: Match) -> dict[str, bool]:
    """{"EW": seated?, "NS": seated?} for the table's two teams this round."""
    seated = set(
        Seating.objects.filter(
            round_id=match.round_id, team_id__in=[match.home_id, match.away_id]
        ).values_list("team_id", flat=True)
    )
    return seating.by_side(match.home_id in seated, match.away_id in seated)


def set_seated(match: Match, sides: dict, actor) -> dict[str, bool]:
    """The table (its referee, its device's key, or the chief) marks each side given seated
    (True, 已入座) or not (False: a wrong tap undone). The phone sends the whole wanted state,
    so a repeat or a late retry changes nothing: the same state twice is one mark. Refused at
    a bye, a table the actor may not write, or a round not open. Returns the table's marks."""
    from tournaments.services import results

    if match.is_bye:
        raise RoundError(_("A bye has no table to sit at."), "match")
    if actor.user is None and actor.table_key is None:
        raise results.NotLoggedIn()
    if not results.can_enter(actor, match):
        raise RoundForbidden(
            _("You may not mark teams seated at table %(table)s."), table=match.table_number
        )
    results.require_open_round(match)
    if not isinstance(sides, dict) or not sides or set(sides) - set(SIDES):
        raise RoundError(_("Say which side is seated: EW or NS, each true or false."), "sides")
    event = match.round.event
    who = actor.user if actor.user is not None else None
    by_name = _name(actor.user) if actor.user is not None else gettext("table link")
    teams = _side_teams(match)
    with transaction.atomic():
        for side, wanted in sides.items():
            team = teams[side]
            data = {"round": match.round.number, "table": match.table_number, "side": side}
            if wanted:
                _seating, created = Seating.objects.get_or_create(
                    round=match.round, team=team, defaults={"by_name": str(by_name)[:150]}
                )
                if created:
                    log_action(event, who, "team.seated", team, data=data, source=actor.source)
            elif Seating.objects.filter(round=match.round, team=team).delete()[0]:
                log_action(event, who, "team.unseated", team, data=data, source=actor.source)
    return seating_of(match)


def mark_seated(match: Match, team: Team, user) -> Seating:
    """The table referee (or the chief) marks ``team`` seated at ``match``'s table (a form's
    POST; the table page sends :func:`set_seated` through the API)."""
    from tournaments.services import results

    if team.pk not in (match.home_id, match.away_id):
        raise RoundError(_("%(team)s does not play at this table."), "team", team=team.name)
    side = seating.side_of(home=team.pk == match.home_id)
    set_seated(match, {side: True}, results.Actor(user, None, "web", ""))
    return Seating.objects.get(round=match.round, team=team)


@dataclass(frozen=True)
class LateTeam:
    match: Match
    team: Team
    side: str  # "EW" or "NS" (rules_engine.seating)
    limit: int  # minutes
    minutes_late: int  # whole minutes since the start (shown; the rule reads the exact time)

    @property
    def opponent(self) -> Team | None:
        return self.match.away if seating.is_home(self.side) else self.match.home


def late_minutes(event) -> int:
    """The minutes after the start at which a team not seated is late (no late-arrival
    leave): the event's ``late_limit_minutes``, the one the late list reads."""
    settings = ladder.ladder_settings(event.game, event.settings or {})
    return ladder.late_limit(False, settings)


def seated_ids(rnd: Round) -> set[int]:
    """The teams marked seated in the round (已入座)."""
    return set(rnd.seatings.values_list("team_id", flat=True))


def late_teams(rnd: Round, now: datetime | None = None) -> list[LateTeam]:
    """The round's late list: each team NOT marked seated, at a table where nothing was
    entered yet (no version), once the time since the round's start reaches its limit
    (``rules_engine.ladder.is_late``, the one rule: ≥ 10:00, or 15:00 with an approved
    late-arrival leave; the minutes are the event's ``late_limit_minutes`` and
    ``late_leave_limit_minutes``). In table order, East–West first."""
    if rnd.started_at is None:
        return []
    now = now or timezone.now()
    event = rnd.event
    settings = ladder.ladder_settings(event.game, event.settings or {})
    seated = seated_ids(rnd)
    late_leave = set(
        RoundLeave.objects.filter(
            team__event=event, round_number=rnd.number, kind=Kind.LATE_ARRIVAL
        ).values_list("team_id", flat=True)
    )
    minutes = int(ladder.minutes_late(rnd.started_at, now))
    late = []
    matches = (
        rnd.matches.exclude(away=None)
        .filter(versions__isnull=True)
        .select_related("home", "away")
        .order_by("table_number")
    )
    for match in matches:
        for side, team in seating.by_side(match.home, match.away).items():
            if team.pk in seated:
                continue
            leave = team.pk in late_leave
            if ladder.is_late(rnd.started_at, now, leave, settings):
                late.append(
                    LateTeam(match, team, side, ladder.late_limit(leave, settings), minutes)
                )
    return late


@dataclass
class Forfeits:
    """What a confirmation of late forfeits did: the teams ruled absent (one forfeit version
    per table), and the teams selected that were no longer late, each with why."""

    teams: list[LateTeam]
    skipped: list[str]

    @property
    def tables(self) -> int:
        return len({late.match.pk for late in self.teams})


def confirm_late_forfeits(
    rnd: Round, user, team_ids=None, now: datetime | None = None, source: str = ""
) -> Forfeits:
    """The chief referee rules the selected late teams (``team_ids``; None: every team on
    the late list) absent. A forfeit is per team: one team absent gives its opponent the
    preset's forfeit win (``forfeit_points``); both teams of a table selected is the preset's
    double no-show (``no_show_points``). Each table's forfeit is an ordinary result version
    that counts at once; each team's forfeit is in the audit log. A team selected that is no
    longer late (seated meanwhile, or its table has a result now) is skipped, and said."""
    from tournaments.services import result_entry, results

    event = rnd.event
    require(user, event, "forfeit.confirm", _("confirm late forfeits"))
    wanted = None if team_ids is None else {whole_number(pk) for pk in team_ids} - {None}
    by_table: dict[int, list[LateTeam]] = {}
    found: set[int] = set()
    for late in late_teams(rnd, now):
        if wanted is not None and late.team.pk not in wanted:
            continue
        found.add(late.team.pk)
        by_table.setdefault(late.match.pk, []).append(late)
    skipped = []
    if wanted:
        for team in Team.objects.filter(event=event, pk__in=wanted - found):
            skipped.append(
                gettext(
                    "%(team)s is no longer late (seated, or its table has a result): nothing ruled."
                )
                % {"team": team.name}
            )
    actor = results.Actor(user, None, "web", source)
    ruled: list[LateTeam] = []
    for teams in by_table.values():
        match = teams[0].match
        absent = "both" if len(teams) == 2 else teams[0].side
        try:
            with transaction.atomic():
                result_entry.mark_absent(match, absent, actor, 0, note=gettext("late arrival"))
                for late in teams:
                    log_action(
                        event,
                        user,
                        "team.late_forfeit",
                        late.team,
                        data={
                            "round": rnd.number,
                            "table": match.table_number,
                            "absent": absent,
                            "minutes_late": late.minutes_late,
                            "limit": late.limit,
                        },
                        reason=gettext("late arrival"),
                        source=source,
                    )
        except results.ResultError as error:
            names = "、".join(late.team.name for late in teams)
            skipped.append(
                gettext("Table %(table)s (%(teams)s): %(reason)s")
                % {"table": match.table_number, "teams": names, "reason": error}
            )
            continue
        ruled.extend(teams)
    return Forfeits(ruled, skipped)


# --- who is not in a draw, and why ----------------------------------------------------------


def not_drawn(rnd: Round) -> list[tuple[Team, str]]:
    """Every active team that has no table (nor bye) in round ``rnd``, with why (SPEC §2: a
    checked-in team is never missing from a draw without a reason shown): on leave; not
    checked in; in an event in stages, not in the stage (not qualified, or knocked out), or
    checked in after this round was drawn (it plays from the next one)."""
    from tournaments.models import SectionEntry

    event = rnd.event
    playing = set()
    for home, away in rnd.matches.values_list("home_id", "away_id"):
        playing |= {home, away}
    teams = list(
        event.teams.filter(status=Team.Status.ACTIVE).exclude(pk__in=playing).order_by("name")
    )
    if not teams:
        return []
    on_leave = set(
        RoundLeave.objects.filter(
            team__event=event, round_number=rnd.number, kind=Kind.MISS_ROUND
        ).values_list("team_id", flat=True)
    )
    present = checked_in_ids(event)
    in_stage = set()
    eliminated = set()
    if rnd.stage_id is not None:
        in_stage = set(
            SectionEntry.objects.filter(stage=rnd.stage_id).values_list("team_id", flat=True)
        )
        if rnd.stage.is_knockout:
            earlier = Match.objects.filter(round__stage=rnd.stage_id, round__number__lt=rnd.number)
            for home, away in earlier.values_list("home_id", "away_id"):
                eliminated |= {home, away}
    out = []
    for team in teams:
        if team.pk in on_leave:
            why = gettext("on leave for this round")
        elif present and team.pk not in present:
            why = gettext("not checked in")
        elif rnd.stage_id is not None and team.pk not in in_stage:
            why = (
                gettext("not among the qualifiers of this stage")
                if rnd.stage.entrants == "qualified"
                else gettext("not in this stage")
            )
        elif team.pk in eliminated:
            why = gettext("knocked out")
        else:
            why = gettext("checked in after this round was drawn: plays from the next round")
        out.append((team, str(why)))
    return out
