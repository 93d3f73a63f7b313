"""Arbitration services: the database work behind the pages and the API.

Every refusal is an :class:`ArbitrationError` (a :class:`~tournaments.errors.ServiceError`:
status 400, 403 or 404) with a message a referee can act on and, where one field is at
fault, its name.
"""

from __future__ import annotations

from tournaments.errors import ServiceError


class ArbitrationError(ServiceError):
    """A refused arbitration action."""


class ArbitrationForbidden(ArbitrationError):
    status = 403
