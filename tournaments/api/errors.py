"""One JSON error shape for the whole API: {"error": message, "field": name|null, "code": stable
code, "errors": {...}}. Scripts read ``code`` (never the words or a regex over ``field``); every
code is a :class:`tournaments.errors.Code`, Django REST framework's refusals included."""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from rules_engine.errors import RulesError
from tournaments.errors import Code, ServiceError
from tournaments.services.results import ChangedMeanwhile

from .result_serializers import VersionSerializer, display_names

logger = logging.getLogger("paisai.api")


def _first_message(detail) -> tuple[str | None, str]:
    if isinstance(detail, dict):
        for key, value in detail.items():
            field, message = _first_message(value)
            # str: a list's errors are keyed by index, and index 0 is falsy
            name = str(key) if key not in ("non_field_errors", "detail") else None
            return (f"{name}.{field}" if name and field else name or field), message
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return None, str(detail)


# Django REST framework's refusals by their class, as codes of the one list.
FRAMEWORK_CODES = (
    (exceptions.NotAuthenticated, Code.LOGIN),
    (exceptions.AuthenticationFailed, Code.LOGIN),
    (exceptions.PermissionDenied, Code.FORBIDDEN),
    (exceptions.NotFound, Code.NOT_FOUND),
    (exceptions.MethodNotAllowed, Code.METHOD_NOT_ALLOWED),
    (exceptions.NotAcceptable, Code.NOT_ACCEPTABLE),
    (exceptions.UnsupportedMediaType, Code.UNSUPPORTED_MEDIA_TYPE),
    (exceptions.Throttled, Code.THROTTLED),
)


def framework_code(exc) -> Code:
    for cls, code in FRAMEWORK_CODES:
        if isinstance(exc, cls):
            return code
    return Code.INVALID  # ValidationError, ParseError: bad input


def error_response(
    message: str, field: str | None = None, code: Code = Code.INVALID, **extra
) -> Response:
    # the code as a plain string: every renderer (the schema's YAML too) writes it
    body = {"error": message, "field": field, "code": code.value, **extra}
    return Response(body, status=code.status)


def service_error_response(exc: ServiceError) -> Response:
    """A service's refusal: its message in the request's language, its field and status."""
    extra = exc.extra()
    if isinstance(exc, ChangedMeanwhile):
        extra["latest"] = VersionSerializer(exc.latest).data
        extra["names"] = display_names([exc.latest])  # who saved it, by name (the page says so)
    return error_response(exc.message, exc.field, exc.code, **extra)


def exception_handler(exc, context):
    """The API's one mapping of exceptions to answers (settings REST_FRAMEWORK)."""
    if isinstance(exc, RulesError):
        exc = ServiceError.from_rules(exc)
    if isinstance(exc, ServiceError):
        return service_error_response(exc)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        logger.exception("Unhandled API error", exc_info=exc)
        return error_response(_("Internal error; it has been logged."), None, Code.SERVER_ERROR)
    field, message = _first_message(response.data)
    body = {"error": message, "field": field, "code": framework_code(exc).value}
    if isinstance(response.data, dict) and not set(response.data) <= {"detail"}:
        body["errors"] = response.data
    response.data = body
    return response
