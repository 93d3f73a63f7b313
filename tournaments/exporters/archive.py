"""The whole event as JSON, and loading it back into a database that does not hold it.

Every model of the apps in ``settings.PAISAI_ARCHIVE_APPS`` (tournaments and arbitration:
found through the app registry, so tournaments imports no other app) that leads to the event
through foreign keys is archived (export jobs excepted: their files are not archived), with primary keys kept so
that export → import → export gives the same JSON. Users appear by username (with their
names and e-mail; passwords are never exported) and are created without a usable password
when missing.
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
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from rules_engine.errors import RulesError

from .base import JSON, Exporter, ExportError

FORMAT = "paisai-archive"
VERSION = 1
SKIPPED = {"tournaments.exportjob"}
USER_FIELDS = ("username", "first_name", "last_name", "email", "is_active")


def _label(model) -> str:
    return model._meta.label_lower


def _fk_fields(model):
    return [f for f in model._meta.concrete_fields if f.is_relation and f.many_to_one]


def archived_models() -> list[tuple[type, str]]:
    """(model, lookup to the tournament) for every archived model, parents first."""
    tournament = apps.get_model("tournaments", "Tournament")
    paths: dict[type, str] = {tournament: "pk"}
    pending = deque(
        m
        for app_label in getattr(settings, "PAISAI_ARCHIVE_APPS", ("tournaments",))
        for m in apps.get_app_config(app_label).get_models()
        if _label(m) not in SKIPPED and m is not tournament
    )
    stalled = 0
    while pending and stalled <= len(pending):
        model = pending.popleft()
        path = None
        for field in _fk_fields(model):
            target = field.related_model
            if target in paths:
                path = field.name if target is tournament else f"{field.name}__{paths[target]}"
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


def export_archive(tournament) -> dict:
    objects: list[dict] = []
    for model, path in archived_models():
        queryset = model._default_manager.filter(**{path: tournament.pk}).order_by("pk")
        objects.extend(serializers.serialize("python", queryset, use_natural_foreign_keys=True))
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
        "tournament": tournament.slug,
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
        return dumps(export_archive(self.tournament)).encode("utf-8")


# --- import -------------------------------------------------------------------------------


def _check_shape(data) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ExportError(_("This file is not a paisai event archive."), "format")
    if data.get("version") != VERSION:
        raise ExportError(
            _("Archive version %(version)s is not supported (expected %(expected)s).")
            % {"version": data.get("version"), "expected": VERSION},
            "version",
        )
    if not isinstance(data.get("objects"), list) or not isinstance(data.get("users"), list):
        raise ExportError(_("The archive has no list of objects or users."), "objects")


def _check_free(objects: list[dict]) -> None:
    """Refuse rather than overwrite: every archived primary key must be free."""
    by_model: dict[str, list] = {}
    for obj in objects:
        by_model.setdefault(obj.get("model", ""), []).append(obj.get("pk"))
    for label, pks in by_model.items():
        try:
            model = apps.get_model(label)
        except (LookupError, ValueError):
            raise ExportError(
                _("Unknown kind of object “%(label)s” in the archive.") % {"label": label},
                "objects",
            ) from None
        if model._default_manager.filter(pk__in=pks).exists():
            raise ExportError(
                _(
                    "The database already holds %(model)s records with the archive's ids: "
                    "import into an empty database."
                )
                % {"model": model._meta.verbose_name_plural},
                "objects",
            )


def _check_settings(objects: list[dict]) -> None:
    """The event's preset and settings through the rules engine's event-settings schema."""
    tournament_model = apps.get_model("tournaments", "Tournament")
    for obj in objects:
        if isinstance(obj, dict) and obj.get("model") == _label(tournament_model):
            fields = obj.get("fields") if isinstance(obj.get("fields"), dict) else {}
            values = {name: fields.get(name) for name in ("game", "preset", "settings")}
            try:
                tournament_model(**values).get_preset()
            except RulesError as err:
                raise ExportError(err.localized(get_language()), err.field) from None


def _ensure_users(users: list[dict]) -> None:
    model = get_user_model()
    for item in users:
        if not isinstance(item, dict) or not item.get("username"):
            raise ExportError(_("A user in the archive has no username."), "users")
        user, created = model.objects.get_or_create(
            username=item["username"],
            defaults={key: item[key] for key in USER_FIELDS[1:] if key in item},
        )
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])


@transaction.atomic
def import_archive(data) -> object:
    """Load an archive; returns the tournament. ExportError says what is wrong."""
    _check_shape(data)
    tournament_model = apps.get_model("tournaments", "Tournament")
    if tournament_model.objects.filter(slug=data.get("tournament")).exists():
        raise ExportError(
            _("An event with the short name “%(slug)s” already exists.")
            % {"slug": data["tournament"]},
            "tournament",
        )
    _check_free(data["objects"])
    _check_settings(data["objects"])
    _ensure_users(data["users"])
    models = set()
    try:
        for item in serializers.deserialize(
            "python", data["objects"], handle_forward_references=False
        ):
            item.save()
            models.add(type(item.object))
    except (DeserializationError, ValueError, TypeError, KeyError) as error:
        raise ExportError(
            _("The archive is damaged: %(error)s") % {"error": error}, "objects"
        ) from None
    _reset_sequences(models)
    return tournament_model.objects.get(slug=data["tournament"])


def _reset_sequences(models) -> None:
    """Primary keys were given explicitly: move the id sequences past them (PostgreSQL)."""
    statements = connection.ops.sequence_reset_sql(no_style(), list(models))
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)
