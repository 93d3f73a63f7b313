"""Arbitration services: the database work behind the pages and the API.

Every refusal is an :class:`ArbitrationError` (a :class:`~tournaments.errors.ServiceError`
with its code: ``invalid``, ``forbidden``, ``not_found``, ``decided_meanwhile``) with a message a
referee can act on and, where one field is at fault, its name.
"""

from __future__ import annotations

from tournaments.errors import Forbidden, ServiceError


class ArbitrationError(ServiceError):
    """A refused arbitration action."""


class ArbitrationForbidden(ArbitrationError, Forbidden):
    """The user may not do this arbitration action (403)."""
