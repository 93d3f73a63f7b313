"""Check-in, leaves and seating: who is here, who is excused, who is late (SPEC §2).

- Before round 1 the organiser checks teams in (by list, by a team's badge QR, by import).
  Once any team of the event has checked in, every draw takes only checked-in teams; a team
  checking in after round 1 is a late entry and joins from the next draw (0 points so far).
  An event that never uses check-in draws every active team.
- A leave (请假) for round n is either "misses the round" (not paired, 0 points, not a bye)
  or "may arrive late" (15 minutes instead of 10 before the forfeit).
- Each round the table referee marks each team seated. At start + the late limit the chief
  referee sees every team not seated and confirms their forfeits in one action; each forfeit
  is an ordinary result version (the results service's ``mark_absent``), so it is versioned,
  audited and can be corrected like any result.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules_engine import ladder
from tournaments import permissions
from tournaments.models import CheckIn, Match, Round, RoundLeave, Seating, Team, Tournament
from tournaments.services import events
from tournaments.services.audit import log_action
from tournaments.services.rounds import RoundError, RoundForbidden

Kind = RoundLeave.Kind


def _name(user) -> str:
    return getattr(user, "username", "") or ""


def require(user, tournament: Tournament, action: str, what: str) -> None:
    """Refused (403) unless ``user`` may do ``action`` (the permission table) here."""
    permissions.require(user, tournament, action, RoundForbidden, what=what)


# --- check-in -----------------------------------------------------------------------------


def uses_checkin(tournament: Tournament) -> bool:
    return CheckIn.objects.filter(team__tournament=tournament).exists()


def checked_in_ids(tournament: Tournament) -> set[int]:
    return set(
        CheckIn.objects.filter(team__tournament=tournament).values_list("team_id", flat=True)
    )


def check_in(teams, user, via: str = CheckIn.Via.LIST) -> int:
    """Check ``teams`` in (idempotent: a team already in stays as it was); the number new."""
    teams = list(teams)
    if not teams:
        return 0
    tournament = teams[0].tournament
    require(user, tournament, "team.check_in", _("check teams in"))
    done = 0
    with transaction.atomic():
        present = checked_in_ids(tournament)
        for team in teams:
            if team.pk in present or team.tournament_id != tournament.pk:
                continue
            CheckIn.objects.create(team=team, via=via, by_name=_name(user))
            events.advance(tournament, Tournament.Status.CHECK_IN)
            log_action(tournament, user, "team.check_in", team, data={"via": via})
            done += 1
    return done


def undo_check_in(team: Team, user, reason: str = "") -> None:
    require(user, team.tournament, "team.check_in", _("check teams in"))
    with transaction.atomic():
        deleted, _rows = CheckIn.objects.filter(team=team).delete()
        if deleted:
            log_action(team.tournament, user, "team.check_out", team, reason=reason)


# --- leaves -------------------------------------------------------------------------------


def grant_leave(team: Team, round_number: int, kind: str, user, reason: str) -> RoundLeave:
    """Record a leave approved in advance (organiser or chief referee), with its reason."""
    tournament = team.tournament
    require(user, tournament, "team.leave", _("grant a leave"))
    if kind not in Kind.values:
        raise RoundError(_("Choose the kind of leave."), "kind")
    if not isinstance(reason, str) or not reason.strip():
        raise RoundError(_("Give a reason: it goes in the audit log."), "reason")
    try:
        number = int(round_number)
    except (TypeError, ValueError):
        number = 0
    if not 1 <= number <= tournament.num_rounds:
        raise RoundError(
            _("The round must be from 1 to %(count)s.") % {"count": tournament.num_rounds},
            "round",
        )
    played = tournament.rounds.filter(number=number).exclude(status=Round.Status.DRAFT)
    if kind == Kind.MISS_ROUND and played.exists():
        raise RoundError(
            _("Round %(number)s is already published: a leave to miss it comes too late.")
            % {"number": number},
            "round",
        )
    try:
        with transaction.atomic():
            leave = RoundLeave.objects.create(
                team=team, round_number=number, kind=kind, reason=reason.strip(),
                by_name=_name(user),
            )  # fmt: skip
            log_action(tournament, user, f"team.leave.{kind}", team,
                       data={"round": number}, reason=reason)  # fmt: skip
    except IntegrityError:
        raise RoundError(
            _("%(team)s already has a leave for round %(number)s.")
            % {"team": team.name, "number": number},
            "round",
        ) from None
    return leave


# --- seating and lateness -----------------------------------------------------------------


def mark_seated(match: Match, team: Team, user) -> Seating:
    """The table referee (or the chief) marks ``team`` seated at ``match``'s table."""
    tournament = match.round.tournament
    if not permissions.can_write_table(user, tournament, match.table_number):
        raise RoundError(_("You may not mark teams seated at this table."))
    if team.pk not in (match.home_id, match.away_id):
        raise RoundError(_("%(team)s does not play at this table.") % {"team": team.name}, "team")
    seating, created = Seating.objects.get_or_create(
        round=match.round, team=team, defaults={"by_name": _name(user)}
    )
    if created:
        log_action(tournament, user, "team.seated", team,
                   data={"round": match.round.number, "table": match.table_number})  # fmt: skip
    return seating


@dataclass(frozen=True)
class LateTeam:
    match: Match
    team: Team
    side: str  # "EW" or "NS"
    limit: int  # minutes
    minutes_late: int  # whole minutes since the start


def late_teams(rnd: Round, now: datetime | None = None) -> list[LateTeam]:
    """Teams not seated past the start + their limit, at tables without a result yet."""
    if rnd.started_at is None:
        return []
    now = now or timezone.now()
    tournament = rnd.tournament
    settings = ladder.ladder_settings(tournament.game, tournament.settings or {})
    seated = set(rnd.seatings.values_list("team_id", flat=True))
    late_leave = set(
        RoundLeave.objects.filter(
            team__tournament=tournament, round_number=rnd.number, kind=Kind.LATE_ARRIVAL
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
        for side, team in (("EW", match.home), ("NS", match.away)):
            if team.pk in seated:
                continue
            limit = ladder.late_limit(team.pk in late_leave, settings)
            if ladder.late_forfeit(minutes, team.pk in late_leave, settings):
                late.append(LateTeam(match, team, side, limit, minutes))
    return late


def confirm_late_forfeits(rnd: Round, user, match_ids=None, now: datetime | None = None) -> int:
    """The chief referee confirms the forfeits of every late team (or of ``match_ids``):
    one forfeit version per table (both sides absent: "both"). Returns the tables ruled."""
    from tournaments.services import result_entry, results

    tournament = rnd.tournament
    require(user, tournament, "forfeit.confirm", _("confirm late forfeits"))
    wanted = None if match_ids is None else {int(pk) for pk in match_ids}
    absent_sides: dict[int, tuple[Match, set[str]]] = {}
    for late in late_teams(rnd, now):
        if wanted is not None and late.match.pk not in wanted:
            continue
        absent_sides.setdefault(late.match.pk, (late.match, set()))[1].add(late.side)
    actor = results.Actor(user, None, "web", "")
    for match, sides in absent_sides.values():
        absent = "both" if len(sides) == 2 else next(iter(sides))
        result_entry.mark_absent(match, absent, actor, 0, note=_("late arrival"))
    return len(absent_sides)
