"""The API's refusals in its OpenAPI schema (issue 31: 4xx answers were undocumented almost
everywhere). One postprocessing hook of drf-spectacular gives every operation the error
answers the API can give it, each with the one error shape (tournaments.api.errors):
``{"error": message, "field": name|null, "code": stable code, ...}``.

- every operation: 400 (bad input, JSON too deep, NUL or a lone surrogate), 404 (unknown
  event or object), 413 (body too large), 429 (a locked login);
- an operation with security: 401 (no or wrong credentials) and 403 (not allowed);
- writes: 409 (changed meanwhile, or refused in the event's state), 415 (not JSON), 422
  (an Idempotency-Key reused with another body);
- every path: 405 (a method it does not have).
"""

from __future__ import annotations

ERROR = {
    "type": "object",
    "properties": {
        "error": {"type": "string", "description": "What is wrong, in the request's language."},
        "field": {"type": "string", "nullable": True, "description": "The field at fault."},
        "code": {
            "type": "string",
            "description": "A stable code (scripts read it, not the "
            "words): invalid, not_found, forbidden, conflict, changed_meanwhile…",
        },
    },
    "required": ["error", "field", "code"],
    "additionalProperties": True,
}
DESCRIPTIONS = {
    "400": "Bad input: the message names the field.",
    "401": "No credentials, or wrong ones.",
    "403": "Not allowed for this user, key or event.",
    "404": "No such event or object (or not visible to this caller).",
    "405": "Method not allowed here.",
    "409": "Changed meanwhile, or refused in the event's present state.",
    "413": "The request body is too large.",
    "415": "Unsupported media type (send JSON).",
    "422": "An Idempotency-Key reused with another body.",
    "429": "Too many failed logins for this username from this address (Retry-After).",
}
EVERY = ("400", "404", "405", "413", "429")
SECURED = ("401", "403")
WRITES = ("409", "415", "422")


def document_errors(result, generator, request, public):
    """drf-spectacular POSTPROCESSING_HOOKS: add the error answers to every operation."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault("Error", ERROR)
    reference = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for item in result.get("paths", {}).values():
        for method, operation in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            codes = list(EVERY)
            if operation.get("security") != [{}]:
                codes += SECURED
            if method != "get":
                codes += WRITES
            responses = operation.setdefault("responses", {})
            for code in codes:
                responses.setdefault(
                    code, {"description": DESCRIPTIONS[code], "content": reference}
                )
    return result
