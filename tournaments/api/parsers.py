"""The API's JSON parser: the request-validation layer's checks (size, depth, NUL) on every
JSON body. Its refusals are :class:`~tournaments.validation.BadInput` (a ServiceError), answered
by the API's one handler as ``{"error", "field", "code"}`` (400, or 413 ``too_large``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import parsers

from tournaments.errors import Code
from tournaments.validation import BadInput, body_limit, parse_json


class CheckedJSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        limit = body_limit(media_type or "application/json")
        data = stream.read(limit + 1) if stream is not None else b""
        if len(data) > limit:  # no Content-Length (chunked): the middleware could not tell
            raise BadInput(
                _("The request is too large (at most %(limit)s bytes)."),
                None,
                Code.TOO_LARGE,
                limit=limit,
            )
        return parse_json(data)
