"""The whole event as JSON (loading it back is tournaments/services/archive.py).

Every model of the apps in ``settings.PAISAI_ARCHIVE_APPS`` (tournaments and arbitration:
found through the app registry, so tournaments imports no other app) that leads to the event
through foreign keys is archived (jobs excepted: their files are not archived), with primary keys kept so
that export → import → export gives the same JSON. Users appear by username (with their
names and e-mail; passwords are never exported) and are created without a usable password
when missing. Table keys are left out (a key is a password to a table's results): the
import issues new ones.
"""

from __future__ import annotations

import datetime
import json
from collections import deque
from collections.abc import Iterable

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.serializers.json import DjangoJSONEncoder

from tournaments.services.archive import FORMAT, USER_FIELDS, VERSION

from .base import JSON, Exporter

SKIPPED = {"tournaments.job"}
SECRET_FIELDS = {"tournaments.tablekey": ("key",)}  # never archived; re-issued on import


def _label(model) -> str:
    return model._meta.label_lower


def _fk_fields(model):
    return [f for f in model._meta.concrete_fields if f.is_relation and f.many_to_one]


def archived_models() -> list[tuple[type, str]]:
    """(model, lookup to the event) for every archived model, parents first."""
    event = apps.get_model("tournaments", "Event")
    paths: dict[type, str] = {event: "pk"}
    pending = deque(
        m
        for app_label in settings.PAISAI_ARCHIVE_APPS
        for m in apps.get_app_config(app_label).get_models()
        if _label(m) not in SKIPPED and m is not event
    )
    stalled = 0
    while pending and stalled <= len(pending):
        model = pending.popleft()
        path = None
        for field in _fk_fields(model):
            target = field.related_model
            if target in paths:
                path = field.name if target is event else f"{field.name}__{paths[target]}"
                break
        if path is None:
            pending.append(model)
            stalled += 1
            continue
        paths[model] = path.replace("__pk", "") if path.endswith("__pk") else path
        stalled = 0
    return _parents_first(paths)


def _parents_first(paths: dict[type, str]) -> list[tuple[type, str]]:
    ordered: list[type] = []
    remaining = list(paths)
    while remaining:
        for model in remaining:
            parents = {f.related_model for f in _fk_fields(model)} & set(paths)
            if parents - {model} <= set(ordered):
                ordered.append(model)
                remaining.remove(model)
                break
        else:  # a cycle: keep the declared order
            ordered.extend(remaining)
            break
    return [(model, paths[model]) for model in ordered]


def _user_names(objects: Iterable[dict], user_fks: dict[str, list[str]]) -> set[str]:
    names = set()
    for obj in objects:
        for name in user_fks.get(obj["model"], []):
            value = obj["fields"].get(name)
            if value:
                names.add(value[0])
    return names


def _user_fks() -> dict[str, list[str]]:
    user = get_user_model()
    return {
        _label(model): [f.name for f in _fk_fields(model) if f.related_model is user]
        for model, _path in archived_models()
    }


def export_archive(event) -> dict:
    objects: list[dict] = []
    for model, path in archived_models():
        queryset = model._default_manager.filter(**{path: event.pk}).order_by("pk")
        serialized = serializers.serialize("python", queryset, use_natural_foreign_keys=True)
        for obj in serialized:
            for name in SECRET_FIELDS.get(obj["model"], ()):
                obj["fields"].pop(name, None)
        objects.extend(serialized)
    names = _user_names(objects, _user_fks())
    users = list(
        get_user_model()
        .objects.filter(username__in=names)
        .order_by("username")
        .values(*USER_FIELDS)
    )
    return {
        "format": FORMAT,
        "version": VERSION,
        "event": event.slug,
        "users": users,
        "objects": objects,
    }


class ArchiveEncoder(DjangoJSONEncoder):
    """Datetimes to the microsecond (Django's encoder cuts them to milliseconds), so that an
    imported archive exports the same text again."""

    def default(self, o):
        if isinstance(o, datetime.datetime):
            return o.isoformat()
        return super().default(o)


def dumps(data: dict) -> str:
    return json.dumps(data, cls=ArchiveEncoder, ensure_ascii=False, indent=1, sort_keys=True)


class ArchiveJson(Exporter):
    identifier = "archive"
    extension = "json"
    content_type = JSON

    def render_bytes(self) -> bytes:
        return dumps(export_archive(self.event)).encode("utf-8")
