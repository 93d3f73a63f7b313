"""The API's schema generator (settings REST_FRAMEWORK ``DEFAULT_SCHEMA_CLASS``): drf-spectacular's,
told two things it cannot see (issue 31: the schema must say what the API does).

- A read the permission leaves public (``ActionPermission`` with no ``read_action``) needs
  no credentials: its security lists "none" too (``{}``), as for DRF's read-only permissions.
- A DELETE that takes a body (the view names it in ``delete_body``) documents the body.

Every operation's error answers are added by the postprocessing hook
(tournaments/api/schema_errors.py).
"""

from __future__ import annotations

from drf_spectacular import openapi
from rest_framework.permissions import AllowAny, IsAuthenticatedOrReadOnly

from .permissions import ActionPermission

PUBLIC_READ = (ActionPermission, AllowAny, IsAuthenticatedOrReadOnly)


class AutoSchema(openapi.AutoSchema):
    def get_auth(self):
        auths = super().get_auth()
        if self.method in ("GET", "HEAD") and auths and {} not in auths and self._public_read():
            auths.append({})
        return auths

    def _public_read(self) -> bool:
        permissions = self.view.get_permissions()
        return (
            all(isinstance(p, PUBLIC_READ) for p in permissions)
            and getattr(self.view, "read_action", None) is None
        )

    def _get_request_body(self, direction="request"):
        if self.method == "DELETE" and getattr(self.view, "delete_body", False):
            self.method = _BodyDelete(self.method)
            try:
                return super()._get_request_body(direction)
            finally:
                self.method = "DELETE"
        return super()._get_request_body(direction)


class _BodyDelete(str):
    """ "DELETE" that drf-spectacular's check of the methods with a body ("PUT", "PATCH",
    "POST") lets through; still "delete" to its per-method overrides (``extend_schema``)."""

    def __eq__(self, other):
        return other == "POST" or str.__eq__(self, other)

    __hash__ = str.__hash__


NO_NUL = "^[^\\u0000]*$"  # PostgreSQL stores no NUL character: text with one is refused
# Required text is more than blanks: DRF trims it (``str.strip``), then refuses it blank. The
# blanks are Python's, written out (a regex's \s is not the same set in every dialect).
_BLANKS = "".join(f"\\u{code:04x}" for code in range(0x10000) if chr(code).isspace())
NOT_BLANK = f"^[^\\u0000]*[^\\u0000{_BLANKS}][^\\u0000]*$"


def strict_requests(result, generator, request, public):
    """drf-spectacular POSTPROCESSING_HOOKS: a request body has the fields it names and no
    others (tournaments/api/strict.py refuses the rest), and no text holds a NUL character
    (the request-validation layer refuses it), in bodies and query strings alike."""
    schemas = result.get("components", {}).get("schemas", {})
    bodies = []
    for item in result.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                _no_nul(parameter.get("schema", {}))
            request_body = operation.get("requestBody", {})
            for media in request_body.get("content", {}).values():
                bodies.append(media.get("schema", {}))
                if "anyOf" in media.get("schema", {}):  # a body that must name something
                    request_body["required"] = True
    seen = set()
    while bodies:
        body = bodies.pop()
        ref = body.get("$ref", "")
        if ref:
            if ref in seen:
                continue
            seen.add(ref)
            body = schemas.get(ref.rsplit("/", 1)[-1], {})
        if body.get("type") != "object" or "properties" not in body:
            continue
        body.setdefault("additionalProperties", False)
        for prop in body["properties"].values():
            _no_nul(prop)
            if "$ref" in prop:
                bodies.append(prop)
    return result


def _no_nul(schema: dict) -> None:
    if schema.get("type") == "array":
        schema = schema.get("items", {})
    if schema.get("type") == "string" and not {"enum", "format", "pattern"} & set(schema):
        schema["pattern"] = NOT_BLANK if schema.get("minLength", 0) >= 1 else NO_NUL
