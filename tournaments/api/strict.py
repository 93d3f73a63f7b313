"""The API's serializers take the JSON types and the fields their schema says (issue 31: schemathesis found
``{"name": 0}`` stored as "0" and ``{"EW": 0}`` read as false, where the schema says a
string and a boolean). DRF's fields coerce (a number to text, 0/1 and "yes" to a boolean, "5"
to 5), which suits HTML forms, not a JSON API: here a value of the wrong JSON type is refused
before the field reads it, with the field named, as any other bad input. A key that is no
field of the request is refused too (the schema says ``additionalProperties: false``).

Every serializer of the API derives from :class:`StrictSerializer` or
:class:`StrictModelSerializer`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import fields, relations, serializers

from tournaments.errors import Code

TEXT = _("must be text (a JSON string).")
BOOLEAN = _("must be true or false.")
WHOLE = _("must be a whole number.")
NUMBER = _("must be a number.")
LIST = _("must be a list.")
OBJECT = _("must be an object.")
UNKNOWN = _("is not a field of this request.")
EVENT_TIME = _("must be a date and time from the year 2000 on (YYYY-MM-DDThh:mm:ss+08:00).")

TEXT_FIELDS = (
    fields.CharField,
    fields.DateField,
    fields.DateTimeField,
    fields.TimeField,
    fields.DurationField,
    fields.UUIDField,
    relations.SlugRelatedField,
)


def _is_integer(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def type_problem(field, value):
    """What is wrong with ``value``'s JSON type for ``field`` (None: nothing)."""
    if value is None:
        return None  # the field's allow_null decides
    if isinstance(field, fields.BooleanField):
        return None if isinstance(value, bool) else BOOLEAN
    if isinstance(field, fields.IntegerField | relations.PrimaryKeyRelatedField):
        return None if _is_integer(value) else WHOLE
    if isinstance(field, fields.FloatField | fields.DecimalField):
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return None if ok else NUMBER
    if isinstance(field, TEXT_FIELDS):
        return None if isinstance(value, str) else TEXT
    if isinstance(field, fields.ChoiceField):
        if all(isinstance(key, str) for key in field.choices):
            return None if isinstance(value, str) else TEXT
        return None
    if isinstance(field, fields.ListField | serializers.ListSerializer):
        if not isinstance(value, list):
            return LIST
        child = getattr(field, "child", None)
        for item in value if child is not None else ():
            problem = type_problem(child, item)
            if problem:
                return problem
        return None
    if isinstance(field, fields.DictField | serializers.Serializer):
        return None if isinstance(value, Mapping) else OBJECT
    return None


class StrictTypesMixin:
    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            writable = {name for name, field in self.fields.items() if not field.read_only}
            unknown = sorted(str(key) for key in data if key not in writable)
            if unknown:  # a typo ("base_verison") is not silently dropped
                message = getattr(self, "refusals", {}).get(unknown[0], UNKNOWN)
                raise serializers.ValidationError({unknown[0]: [message]}, code=Code.INVALID)
            for name, field in self.fields.items():
                if field.read_only or name not in data:
                    continue
                problem = type_problem(field, data[name])
                if problem:
                    raise serializers.ValidationError({name: [problem]}, code=Code.INVALID)
        return super().to_internal_value(data)


class StrictSerializer(StrictTypesMixin, serializers.Serializer):
    pass


class StrictModelSerializer(StrictTypesMixin, serializers.ModelSerializer):
    pass


@extend_schema_field({"type": "string", "format": "date-time", "pattern": "^2[0-9]{3}-"})
class EventTimeField(serializers.DateTimeField):
    """A moment at an event: ISO 8601, from the year 2000 on (the schema says so; a year 885
    came back as "+08:05:43", the local mean time of the event's zone, no RFC 3339 offset)."""

    def to_internal_value(self, value):
        if isinstance(value, str) and not re.match(r"2[0-9]{3}-", value):
            raise serializers.ValidationError(EVENT_TIME)
        return super().to_internal_value(value)


@extend_schema_field({"type": "object", "additionalProperties": True})
class ObjectField(serializers.JSONField):
    """A JSON object (a record, a match format, settings): documented as one, and anything
    else (a list, a string, null) refused."""

    not_object = OBJECT

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if not isinstance(value, dict):
            raise serializers.ValidationError(self.not_object)
        return value


@extend_schema_field(
    {
        "anyOf": [
            {"type": "object", "additionalProperties": True},
            {"type": "array"},
            {"type": "string"},
            {"type": "number"},
            {"type": "boolean"},
        ]
    }
)
class AnyJSONField(serializers.JSONField):
    """Any JSON value but null (a rules desk request: the engine answers what it is)."""
