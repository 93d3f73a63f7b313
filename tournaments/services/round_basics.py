"""What every round service builds on, and nothing above it: the round services' refusals,
the draw seed's check and the words of a pairing that failed. The round workflow (rounds.py),
a stage's rounds (stage_rounds.py), the end of a round (round_close.py) and the event's
status (events.py) import it; it imports none of them, so they form no import cycle
(tests/test_architecture.py)."""

from __future__ import annotations

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from tournaments.errors import Forbidden, ServiceError
from tournaments.models import Event, Team
from tournaments.pairing import PairingError
from tournaments.pairing.messages import render

MAX_SEED = 2**53 - 1  # exact in JSON and JavaScript


class RoundError(ServiceError):
    """A round step that cannot be done; `message` says why, `field` names the input at fault."""


class RoundForbidden(RoundError, Forbidden):
    """The user may not do this round step in this event."""


class RoundCloseError(ServiceError):
    """A refused finalise or reopen; ``tables`` are those still lacking a counting result."""

    def __init__(
        self, message, field: str | None = None, code=None, /, pending: list | None = None, **params
    ):
        super().__init__(message, field, code, **params)
        self.tables = pending or []

    def extra(self) -> dict:
        return {"tables": self.tables}


class RoundCloseForbidden(RoundCloseError, Forbidden):
    """The user may not finalise or reopen this round."""


def check_seed(seed) -> int | None:
    if seed is None or seed == "":
        return None
    try:
        value = int(seed)
    except (TypeError, ValueError):
        raise RoundError(_("The draw seed must be a whole number."), "seed") from None
    if isinstance(seed, bool) or not 0 <= value <= MAX_SEED:
        raise RoundError(
            _("The draw seed must be a whole number from 0 to %(max)s."),
            "seed",
            max=MAX_SEED,
        )
    return value


def team_names(event: Event, ids) -> str:
    names = dict(Team.objects.filter(event=event, pk__in=ids).values_list("id", "name"))
    return ", ".join(names.get(team_id, f"#{team_id}") for team_id in ids)


def pairing_failed(event: Event, number: int, error: PairingError) -> RoundError:
    """The pairing core's refusal (a message key) as a refusal in the reader's language."""
    teams = error.details.get("teams") or []
    reason = lazy(render, str)(error.key, {"count": error.details.get("count", len(teams))})
    if not teams:
        return RoundError(
            _("Round %(number)s cannot be paired: %(reason)s"), None, number=number, reason=reason
        )
    return RoundError(
        _("Round %(number)s cannot be paired: %(reason)s Teams concerned: %(teams)s."),
        None,
        number=number,
        reason=reason,
        teams=team_names(event, teams[:20]),
    )
