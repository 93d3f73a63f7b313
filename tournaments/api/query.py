"""The API's whole-number query parameters: each one's schema and its reading in one place.

Issue 31: ``?page=null``, ``?limit=abc`` or ``?team=true`` were read as "not given" and
answered 200, where the schema says an integer. A :class:`QueryInt` documents the parameter
(with its minimum) and reads it: absent is ``default``; anything but a whole number in ASCII
digits, a value under the minimum, or the parameter given twice is refused (400 naming it);
a value past ``cap`` is read as ``cap`` (the schema sets no maximum: a huge page number is
the last page, a huge page size the largest one).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter

from tournaments.errors import ServiceError
from tournaments.validation import INT_MAX


@dataclass(frozen=True)
class QueryInt:
    name: str
    minimum: int = 0
    cap: int = INT_MAX
    description: str = ""

    def parameter(self) -> OpenApiParameter:
        schema = {"type": "integer", "minimum": self.minimum}
        return OpenApiParameter(
            self.name, schema, OpenApiParameter.QUERY, description=self.description
        )

    def parameter_dict(self) -> dict:
        """The parameter as an OpenAPI object (a paginator's schema parameters)."""
        return {
            "name": self.name,
            "in": "query",
            "required": False,
            "description": self.description,
            "schema": {"type": "integer", "minimum": self.minimum},
        }

    def read(self, query, default: int | None = None) -> int | None:
        values = query.getlist(self.name) if hasattr(query, "getlist") else [query.get(self.name)]
        values = [v for v in values if v is not None]
        if not values:
            return default
        if len(values) > 1:
            raise ServiceError(_("Give %(field)s once."), self.name, field=self.name)
        text = values[0].strip()
        if not (text.isascii() and text.isdigit()):
            raise ServiceError(
                _("%(field)s must be a whole number of at least %(low)s."),
                self.name,
                field=self.name,
                low=self.minimum,
            )
        number = int(text) if len(text) <= 18 else self.cap
        if number < self.minimum:
            raise ServiceError(
                _("%(field)s must be a whole number of at least %(low)s."),
                self.name,
                field=self.name,
                low=self.minimum,
            )
        return min(number, self.cap)
