"""The event's award list (prize list and certificates read it; see exporters/prizes.py)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from tournaments import permissions
from tournaments.errors import ExportError
from tournaments.models import Event
from tournaments.services.audit import log_action
from tournaments.services.awards import parse_awards

AWARDS_MAX_CHARS = 5000


def set_awards(event: Event, user, text: str) -> Event:
    """Save the award list (validated line by line), logged."""
    if not permissions.can_manage(user, event):
        raise ExportError(_("Only an organiser of this event may edit the awards."))
    text = (text or "").strip()
    if len(text) > AWARDS_MAX_CHARS:
        raise ExportError(
            _("The award list is too long (%(max)s characters at most)."),
            "awards",
            max=AWARDS_MAX_CHARS,
        )
    parse_awards(text)
    event.awards = text
    event.save(update_fields=["awards"])
    log_action(event, user, "tournament.awards", event, data={"awards": text})
    return event
