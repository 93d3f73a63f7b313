"""The API's JSON parser: the request-validation layer's checks (size, depth, NUL) on every
JSON body, answered as ``{"error", "field"}`` (400, or 413 for a body too large)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework import exceptions, parsers

from tournaments.validation import BadInput, body_limit, parse_json


class InputRefused(exceptions.APIException):
    """A BadInput of the validation layer, with its status and field."""

    def __init__(self, error: BadInput):
        self.status_code = error.status
        self.default_code = "too_large" if error.status == 413 else "invalid"
        super().__init__({error.field: [error.message]} if error.field else error.message)


class CheckedJSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        limit = body_limit(media_type or "application/json")
        data = stream.read(limit + 1) if stream is not None else b""
        if len(data) > limit:  # no Content-Length (chunked): the middleware could not tell
            message = _("The request is too large (at most %(limit)s bytes).") % {"limit": limit}
            raise InputRefused(BadInput(message, status=413))
        try:
            return parse_json(data)
        except BadInput as error:
            raise InputRefused(error) from None
