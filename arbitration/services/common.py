"""Shared helpers: roles, sides and the event's ladder settings."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from rules_engine import ladder, seating
from rules_engine.errors import RulesError
from tournaments import permissions
from tournaments.models import Event, Match, Role, Team

from . import ArbitrationError, ArbitrationForbidden


def settings_of(event: Event) -> ladder.LadderSettings:
    """The ladder settings of the event: the game's defaults and ``event.settings``."""
    try:
        return ladder.ladder_settings(event.game, event.settings or {})
    except RulesError as err:
        raise ArbitrationError.from_rules(err) from None


def require_chief(user, event: Event, action: str, what: str) -> None:
    """Refused unless ``user`` may do ``action`` (a chief referee's action of the table)."""
    permissions.require(
        user,
        event,
        action,
        ArbitrationForbidden,
        _("Only the chief referee may %(what)s."),
        what=what,
    )


def require_reason(reason: object) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise ArbitrationError(_("Give a reason: it is kept with the decision."), "reason")
    return reason.strip()


def side_of(team: Team, match: Match) -> str:
    """The side ``team`` plays in ``match`` (the engine's rules_engine.seating.side_of)."""
    if team.pk in (match.home_id, match.away_id):
        return seating.side_of(home=team.pk == match.home_id)
    raise ArbitrationError(_("%(team)s does not play in this match."), "team", team=team.name)


def committee_size(event: Event) -> int:
    return event.roles.filter(role=Role.COMMITTEE).count()
