"""Creating events and registering teams by hand (the .xlsx import is
:mod:`tournaments.services.registration_import`).

One person plays on one team per event: a player is known by name and, optionally, an ID
number or phone (``ident``). Two players of the same name are two people only when both give
an ID and the IDs differ; otherwise the second registration is refused, naming the team.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from rules_engine.presets import PRESETS
from tournaments import permissions
from tournaments.errors import Code, Forbidden, ServiceError
from tournaments.models import Event, EventRole, Player, Role, Team, Unit

from .audit import log_action


def create_event(user, **fields) -> Event:
    """Create an event; its creator becomes its first organiser. Without a round length the
    preset's own applies (idiom chain 五 "30 分钟内完成比赛": 30 minutes; the others 60)."""
    if not permissions.can_create_event(user):
        raise Forbidden(_("You may not create events."))
    if fields.get("round_minutes") is None and fields.get("preset") in PRESETS:
        fields["round_minutes"] = PRESETS[fields["preset"]].default_round_minutes
    with transaction.atomic():
        event = Event.objects.create(created_by=user, **fields)
        EventRole.objects.create(user=user, event=event, role=Role.ORGANISER)
        log_action(event, user, "tournament.create", event, data={"name": event.name})
    return event


def get_or_create_unit(event: Event, name: str) -> Unit | None:
    name = (name or "").strip()
    if not name:
        return None
    unit, _created = Unit.objects.get_or_create(event=event, name=name)
    return unit


def same_person(ident: str, other_ident: str) -> bool:
    """Two players of the same name are the same person unless both give an ID and the IDs
    differ (an ID number or phone, compared without spaces)."""
    mine, theirs = _plain_ident(ident), _plain_ident(other_ident)
    return not (mine and theirs) or mine == theirs


def _plain_ident(ident: str | None) -> str:
    return "".join((ident or "").split()).upper()


def player_team(
    event: Event, name: str, exclude: Team | None = None, ident: str = ""
) -> Team | None:
    """The team of the event the person of this name (and ID) plays for (one person, one
    team), or None."""
    players = Player.objects.filter(team__event=event, name=(name or "").strip())
    if exclude is not None and exclude.pk:
        players = players.exclude(team=exclude)
    for player in players.select_related("team"):
        if same_person(ident, player.ident):
            return player.team
    return None


def team_name(text: str | None) -> str:
    """A team's name as stored: without surrounding spaces."""
    return (text or "").strip()


def taken_names(event: Event, names, exclude: Team | None = None) -> set[str]:
    """Of ``names``, those another team of the event already has. The rule (a team's name is
    its own within its event) lives here and in the database's ``team_unique_name``, which
    holds it under concurrent registrations; forms, the API and the import ask this."""
    teams = other_teams(event, exclude).filter(name__in={team_name(n) for n in names})
    return set(teams.values_list("name", flat=True))


def other_teams(event: Event, exclude: Team | None = None):
    """The event's teams but ``exclude`` (the one being saved), which the name and seed rules
    compare with."""
    teams = Team.objects.filter(event=event)
    if exclude is not None and exclude.pk:
        teams = teams.exclude(pk=exclude.pk)
    return teams


def seed_taken(event: Event, seed: int | None, exclude: Team | None = None) -> bool:
    """Whether another team of the event has ``seed`` (``team_unique_seed`` in the database)."""
    if seed is None:
        return False
    return other_teams(event, exclude).filter(seed=seed).exists()


def name_taken_error() -> ServiceError:
    return ServiceError(_("A team with this name is already registered."), "name", Code.CONFLICT)


def seed_taken_error() -> ServiceError:
    return ServiceError(_("Another team has this seed."), "seed", Code.CONFLICT)


def clash_error(event: Event, team: Team, name: str, seed: int | None) -> ServiceError:
    """The words for a registration the database refused (a concurrent one took the name or
    the seed between the check and the write): the rules are asked again, now that the other
    registration is written, rather than read from the database's error text (which differs
    between PostgreSQL and SQLite)."""
    others = other_teams(event, team)
    if others.filter(name=name).exists():
        return name_taken_error()
    if seed is not None and others.filter(seed=seed).exists():
        return seed_taken_error()
    return ServiceError(_("This team clashes with another registration (name or seed)."), "name")


@transaction.atomic
def save_team(
    event: Event,
    user,
    *,
    name: str,
    unit_name: str,
    players: list[str],
    seed: int | None,
    team: Team | None = None,
    status: str | None = None,
    idents: list[str] | None = None,
) -> Team:
    """Create or update a team and its two players, with an audit entry. A name or seed
    another team of the event has is refused (:func:`taken_names`, :func:`seed_taken`)."""
    permissions.require(user, event, "team.register")
    idents = [(i or "").strip() for i in (idents or ["", ""])]
    name = team_name(name)
    if taken_names(event, [name], exclude=team):
        raise name_taken_error()
    if seed_taken(event, seed, exclude=team):
        raise seed_taken_error()
    unit = get_or_create_unit(event, unit_name)
    creating = team is None
    if creating:
        team = Team(event=event)
    before = None if creating else team_state(team)
    team.name, team.unit, team.seed = name, unit, seed
    if status:
        team.status = status
    try:
        with transaction.atomic():
            team.save()
    except IntegrityError:
        raise clash_error(event, team, name, seed) from None
    for order, (player_name, ident) in enumerate(zip(players, idents, strict=True), start=1):
        other = player_team(event, player_name, exclude=team, ident=ident)
        if other is not None:
            raise ServiceError(
                _("%(player)s already plays for %(team)s: one person, one team per event."),
                f"player{order}",
                player=player_name.strip(),
                team=other.name,
            )
    for order, (player_name, ident) in enumerate(zip(players, idents, strict=True), start=1):
        Player.objects.update_or_create(
            team=team, seat_order=order, defaults={"name": player_name.strip(), "ident": ident}
        )
    log_action(
        event,
        user,
        "team.create" if creating else "team.update",
        team,
        data={"before": before, "after": team_state(team)},
    )
    return team


def team_state(team: Team) -> dict:
    """What the audit log keeps of a team: name, unit, seed, players (and IDs), status."""
    players = list(team.players.order_by("seat_order").values_list("name", "ident"))
    return {
        "name": team.name,
        "unit": str(team.unit or ""),
        "seed": team.seed,
        "players": [name for name, _ident in players],
        "idents": [ident for _name, ident in players],
        "status": team.status,
    }


def set_team_status(team: Team, status: str, user, reason: str) -> Team:
    """Withdraw, suspend or reinstate a team (e.g. an arbitration suspension), logged.
    A team that is not active is never paired again."""
    if status not in Team.Status.values:
        raise ServiceError(_("Unknown team status %(status)s."), "status", status=status)
    before = team.status
    team.status = status
    team.save(update_fields=["status"])
    log_action(
        team.event,
        user,
        "team.status",
        team,
        data={"before": before, "after": status},
        reason=reason,
    )
    return team
