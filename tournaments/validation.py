"""The request-validation layer: every body and parameter is checked before any code uses it.

- ``RequestLimitMiddleware``: a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (file uploads:
  ``PAISAI_MAX_UPLOAD_BYTES``) is refused with 413 before it is read; a malformed
  ``Content-Length`` is 400; a NUL character in the query string or a form field is 400.
- ``parse_json`` / ``check_json``: JSON no deeper than the engine's ``MAX_JSON_DEPTH`` (rules_engine/json_text.py) and free of
  NUL characters (PostgreSQL cannot store them; nothing is logged with one).
- ``bounded_int``: an integer within its column's range, or ``BadInput`` naming the field.

Refusals are :class:`BadInput`, a :class:`~tournaments.errors.ServiceError` (code ``invalid``,
or ``too_large`` for a body over the limit); the API answers them as ``{"error", "field",
"code"}`` JSON, pages as a short page in both languages.
"""

from __future__ import annotations

import json
import math

from django.conf import global_settings, settings
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext_lazy as _

from rules_engine import json_text
from tournaments.errors import Code, ServiceError
from tournaments.upload_limit import max_upload_body

SMALLINT_MAX = 32767  # PositiveSmallIntegerField's upper bound on every backend
INT_MAX = 2_147_483_647
# The highest table number, the one limit of every place that takes one (the board's zones,
# table links, table assignments, halls, the API's table links); each refusal names it.
MAX_TABLE = 10_000


class BadInput(ServiceError):
    """Input refused before it reached a service (400, or 413 with ``Code.TOO_LARGE``)."""


def max_depth() -> int:
    return json_text.MAX_JSON_DEPTH  # the engine's one limit: the API and the CLI agree


def nul_refused(field: str | None) -> BadInput:
    if field:
        return BadInput(
            _("%(field)s contains a NUL character (\\u0000); remove it."), field, field=field
        )
    return BadInput(_("The request contains a NUL character (\\u0000); remove it."))


def encodable(text: str) -> bool:
    """Text that is UTF-8 (JSON's "\\ud800", a lone surrogate, is not: no database stores it)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def surrogate_refused(field: str | None) -> BadInput:
    return BadInput(
        _("%(field)s is not valid text (a lone UTF-16 surrogate such as \\ud800); remove it."),
        field,
        field=field or _("The request"),
    )


def whole_number(value, high: int = INT_MAX) -> int | None:
    """``value`` as a whole number written in ASCII digits from 0 to ``high``, else None.
    ``str.isdigit`` accepts "²" (which ``int`` refuses) and "١" (which it reads as 1), and
    a long run of digits overflows every column: neither reaches a query."""
    text = str(value if value is not None else "").strip()
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(high)):
        return None
    number = int(text)
    return number if number <= high else None


def too_deep() -> BadInput:
    return BadInput(
        _("The JSON is nested too deeply (at most %(depth)s levels)."), None, depth=max_depth()
    )


def check_json(value, field: str | None = None) -> object:
    """``value`` (parsed JSON) unchanged, or BadInput: too deep, or a NUL in a key or string.

    Iterative, so a deep value cannot exhaust the stack; ``field`` prefixes the path named.
    """
    limit = max_depth()
    stack = [(value, 1, field)]
    while stack:
        item, depth, path = stack.pop()
        if isinstance(item, json_text.LongNumber):  # a number past its digits, kept as text
            raise BadInput(
                _("%(field)s is a number too long or not finite (at most %(digits)s digits)."),
                path,
                field=path or _("A value"),
                digits=json_text.MAX_NUMBER_DIGITS,
            )
        if isinstance(item, str):
            if "\x00" in item:
                raise nul_refused(path)
            if not encodable(item):
                raise surrogate_refused(path)
            continue
        if isinstance(item, float) and not math.isfinite(item):
            raise BadInput(_("%(field)s is not a finite number."), path, field=path or _("A value"))
        if not isinstance(item, dict | list):
            continue
        if depth > limit:
            raise too_deep()
        pairs = item.items() if isinstance(item, dict) else enumerate(item)
        for key, child in pairs:
            if isinstance(key, str) and "\x00" in key:
                raise nul_refused(path)
            if isinstance(key, str) and not encodable(key):
                raise surrogate_refused(path)
            name = f"{path}.{key}" if path else str(key)
            stack.append((child, depth + 1, name))
    return value


def parse_json(text: str | bytes, field: str | None = None) -> object:
    """Parse and check JSON text; BadInput (naming ``field``) when it is not acceptable."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise BadInput(_("The JSON is not UTF-8 text."), field) from None

    def no_constant(name: str):  # NaN, Infinity: not JSON
        raise BadInput(_("%(name)s is not a JSON number."), field, name=name)

    try:
        value = json.loads(
            text,
            parse_constant=no_constant,
            parse_int=json_text.parse_int,
            parse_float=json_text.parse_float,
        )
    except RecursionError:
        raise too_deep() from None
    except ValueError as err:
        raise BadInput(_("Not valid JSON: %(error)s"), field, error=err) from None
    return check_json(value, field)


def bounded_int(value, field: str, low: int = 0, high: int = SMALLINT_MAX, *, blank=None):
    """``value`` as an int in ``low..high`` (``blank`` for None or ""), else BadInput."""
    if value is None or value == "":
        return blank
    if isinstance(value, bool):
        value = "bool"
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise BadInput(_("%(field)s must be a whole number."), field, field=field) from None
    if not low <= number <= high:
        raise BadInput(
            _("%(field)s must be from %(low)s to %(high)s."), field, field=field, low=low, high=high
        )
    return number


def refusal_response(request, error: BadInput) -> HttpResponse:
    """The answer to refused input: JSON on the API, a short page elsewhere."""
    if request.path.startswith("/api/"):
        body = {"error": error.message, "field": error.field, "code": error.code}
        return JsonResponse(body, status=error.status)
    from django.shortcuts import render

    return render(request, "errors/bad_input.html", {"error": error}, status=error.status)


def body_limit(content_type: str) -> int:
    if content_type.startswith("multipart/"):
        return max_upload_body()
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE or global_settings.DATA_UPLOAD_MAX_MEMORY_SIZE


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class RequestLimitMiddleware:
    """Refuses an oversized body before reading it, and NUL characters in query strings and
    form fields (JSON bodies are checked by the API's parser)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            self.check(request)
        except BadInput as error:
            return refusal_response(request, error)
        return self.get_response(request)

    def check(self, request) -> None:
        if "\x00" in request.path:  # /table/a%00b/: no page and no key has one
            raise nul_refused(None)
        length = request.META.get("CONTENT_LENGTH") or "0"
        try:
            size = int(length)
        except ValueError:
            raise BadInput(_("The Content-Length header is not a number.")) from None
        if size < 0:
            raise BadInput(_("The Content-Length header is not a number."))
        limit = body_limit(request.content_type or "")
        if size > limit:
            raise BadInput(
                _("The request is too large (%(size)s bytes; at most %(limit)s)."),
                None,
                Code.TOO_LARGE,
                size=size,
                limit=limit,
            )
        for key, values in request.GET.lists():
            if "\x00" in key or any("\x00" in v for v in values):
                raise nul_refused(key)
        if request.method == "POST" and request.content_type in FORM_TYPES:
            for key, values in request.POST.lists():
                if "\x00" in key or any("\x00" in v for v in values):
                    raise nul_refused(key)
