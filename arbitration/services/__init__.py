"""Arbitration services: the database work behind the pages and the API.

Every refusal is an :class:`ArbitrationError` (``status`` 400, 403 or 404 for the API) with a
message a referee can act on and, where one field is at fault, its name.
"""

from __future__ import annotations


class ArbitrationError(Exception):
    status = 400

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    @classmethod
    def from_rules(cls, err) -> ArbitrationError:
        """The rules engine's refusal, in the request's language."""
        from django.utils.translation import get_language

        return cls(err.localized(get_language()), err.field)


class ArbitrationForbidden(ArbitrationError):
    status = 403
