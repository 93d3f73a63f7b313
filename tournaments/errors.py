"""The one error family of the services: a refusal a user can act on.

Every service refuses with a :class:`ServiceError` (or a subclass naming its domain): a
translatable message template with its parameters, the ``field`` at fault (or None) and a
stable :class:`Code` that a script reads instead of the words or the field path. The code
gives the HTTP status of the answer (``invalid`` 400, ``forbidden`` 403, ``not_found`` 404,
``conflict`` 409 …); a subclass declares its own when a script acts on it (``login``,
``changed_meanwhile``, ``deal_refused``, ``match_not_over`` …). Every code is declared once,
in :class:`Code` (tests/tournaments/test_errors.py checks it, and that the services raise
nothing else). The message is rendered in the language active when it is *shown*, so a page
and the API answer in their reader's language. Two places turn it into an answer:
``tournaments.api.errors.exception_handler`` (JSON ``{"error", "field", "code"}``) and
``tournaments.views.mixins.ServiceErrorMixin`` (the page, with the message).

The rules engine's :class:`~rules_engine.errors.RulesError` becomes one here, in
:meth:`ServiceError.from_rules`, and nowhere else.
"""

from __future__ import annotations

from enum import StrEnum, unique
from typing import Any

from django.utils.translation import get_language

from rules_engine import phone
from rules_engine.errors import RulesError
from rules_engine.i18n import Text, localize


@unique
class Code(StrEnum):
    """Every stable code of an error answer, with the HTTP status it is answered with."""

    status: int

    def __new__(cls, value: str, status: int) -> Code:
        member = str.__new__(cls, value)
        member._value_ = value
        member.status = status
        return member

    # what any refusal is, by its status
    INVALID = phone.INVALID, 400  # bad input: the message names the field
    LOGIN = "login", 401  # nobody logged in, a login expired or wrong credentials
    FORBIDDEN = "forbidden", 403  # not allowed for this user, key or event
    NOT_FOUND = "not_found", 404  # no such event or object (or not visible to the caller)
    CONFLICT = "conflict", 409  # refused in the present state of the event
    TOO_LARGE = "too_large", 413  # the request body (an upload) is too large
    SERVER_ERROR = "server_error", 500  # a fault of the site (logged)
    # the protocol's (Django REST framework's refusals)
    METHOD_NOT_ALLOWED = "method_not_allowed", 405
    NOT_ACCEPTABLE = "not_acceptable", 406
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type", 415
    THROTTLED = "throttled", 429
    # refusals a script acts on
    CHANGED_MEANWHILE = "changed_meanwhile", 409  # a newer result version was saved first
    MERGE_CONFLICT = "merge_conflict", 409  # mine over a newer version: deals changed by both
    DECIDED_MEANWHILE = "decided_meanwhile", 409  # the appeal was decided meanwhile
    IDEMPOTENCY_MISMATCH = "idempotency_mismatch", 422  # the key was used with another body
    DEAL_REFUSED = phone.DEAL_REFUSED, 400  # the engine refuses one deal (``deal``)
    GAME_REFUSED = phone.GAME_REFUSED, 400  # … one game of a best of three (``game``)
    RECORD_REFUSED = phone.RECORD_REFUSED, 400  # … the record as a whole
    MATCH_NOT_OVER = "match_not_over", 400  # a knockout match needs a winner: play on
    ROWS_REFUSED = "rows_refused", 400  # an import file's rows refused (the report lists them)
    LOGIN_LOCKED = "login_locked", 429  # too many failed logins (Retry-After)
    READ_ONLY_MIRROR = "read_only_mirror", 403  # a public mirror takes no writes
    USER_HAS_HISTORY = "user_has_history", 409  # a user with records is deactivated, not deleted
    CAPTAIN_SIGN_REFUSED = "captain_sign_refused", 403  # a wrong captain's signature: try again
    CAPTAIN_SIGN_LOCKED = "captain_sign_locked", 403  # signing paused on this phone for a while


class ServiceError(Exception):
    """A refused service action: ``message % params`` in the active language.

    ``ServiceError(_("… %(name)s …"), field, code, name=…)``: the message and the field are
    positional, so a template may name a parameter ``field`` or ``code`` too; ``code``
    (positional, optional) overrides the class's."""

    code: Code = Code.INVALID

    def __init__(
        self, message: Any, field: str | None = None, code: Code | None = None, /, **params: Any
    ) -> None:
        super().__init__(message)
        self.template = message
        self.params = params
        self.field = field
        if code is not None:
            self.code = Code(code)

    @property
    def status(self) -> int:
        """The HTTP status of the answer: the code's."""
        return self.code.status

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
    def from_error(cls, err: ServiceError) -> ServiceError:
        """``err`` (e.g. a refused input) as a refusal of this domain: the same template,
        parameters, field and code."""
        error = cls(err.template, err.field, **err.params)
        error.code = err.code
        return error

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

    code = Code.FORBIDDEN


class NotFound(ServiceError):
    """The thing asked for does not exist (404)."""

    code = Code.NOT_FOUND


class ExportError(ServiceError):
    """Bad export parameters; ``field`` names the one at fault."""
