"""The one error type of the services: a refusal a user can act on.

Every service refuses with a :class:`ServiceError` (or a subclass naming its domain): a
translatable message template with its parameters, the ``field`` at fault (or None) and the
HTTP ``status`` of the answer (400 bad input, 403 forbidden, 404 unknown, 409 changed
meanwhile). The message is rendered in the language active when it is *shown*, so a page and
the API answer in their reader's language. Two places turn it into an answer:
``tournaments.api.errors.exception_handler`` (JSON ``{"error", "field"}``) and
``tournaments.views.mixins.ServiceErrorMixin`` (the page, with the message).

The rules engine's :class:`~rules_engine.errors.RulesError` becomes one here, in
:meth:`ServiceError.from_rules`, and nowhere else.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language

from rules_engine.errors import RulesError
from rules_engine.i18n import Text, localize


class ServiceError(Exception):
    """A refused service action: ``message % params`` in the active language."""

    status = 400

    def __init__(
        self, message: Any, field: str | None = None, status: int | None = None, **params: Any
    ) -> None:
        super().__init__(message)
        self.template = message
        self.params = params
        self.field = field
        if status is not None:
            self.status = status

    @property
    def message(self) -> str:
        """The message rendered now, in the active language."""
        if isinstance(self.template, Text):  # an engine refusal: paths and seats in words
            text = localize(self.template, get_language(), words=True)
        else:
            text = str(self.template)
        return text % self.params if self.params else text

    def __str__(self) -> str:
        return self.message

    def extra(self) -> dict:
        """More members of the API's error answer (e.g. the tables a round still lacks)."""
        return {}

    @classmethod
    def from_rules(cls, err: RulesError, prefix: str | None = None) -> ServiceError:
        """The rules engine's refusal; its field is put under ``prefix`` (e.g. ``record``)."""
        if prefix:
            field = f"{prefix}.{err.field}" if err.field else prefix
        else:
            field = err.field
        return cls(err.message, field)


class Forbidden(ServiceError):
    """The user may not do this here (403)."""

    status = 403


class NotFound(ServiceError):
    """The thing asked for does not exist (404)."""

    status = 404
