"""Loading an event archive (tournaments/exporters/archive.py writes it) into a database
that does not hold the event: all or nothing, refusing rather than overwriting.

Primary keys are kept, so export → import → export gives the same JSON. Users missing here
are created without a usable password. Table keys are not in the archive: every archived
table key gets a new random key (give the tables their new links).
"""

from __future__ import annotations

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.db import connection, transaction
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from rules_engine.errors import RulesError
from tournaments.errors import ExportError
from tournaments.models.tables import new_key

# The archive's own identity (tournaments/exporters/archive.py writes it, this module reads it)
FORMAT = "paisai-archive"
VERSION = 2  # 2: the event is Event (issue 29); version 1 is still read
USER_FIELDS = ("username", "first_name", "last_name", "email", "is_active")

# Version 1 was written before issue 29 renamed the event's model: its records name the models
# of V1_MODELS and a V1_EVENT field, and the archive names its event under V1_EVENT.
V1_MODELS = {
    "tournaments.tournament": "tournaments.event",  # rename_event: keep
    "tournaments.tournamentrole": "tournaments.eventrole",  # rename_event: keep
}
V1_EVENT = "tournament"  # rename_event: keep


def _upgrade(data):
    """A version-1 archive read as the current version (anything else as it is)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != 1:
        return data
    upgraded = {key: value for key, value in data.items() if key != V1_EVENT}
    upgraded.update(version=VERSION, event=data.get(V1_EVENT))
    if isinstance(data.get("objects"), list):
        upgraded["objects"] = [_upgrade_object(obj) for obj in data["objects"]]
    return upgraded


def _upgrade_object(obj):
    if not isinstance(obj, dict):
        return obj
    obj = {**obj, "model": V1_MODELS.get(obj.get("model"), obj.get("model"))}
    if isinstance(obj.get("fields"), dict) and V1_EVENT in obj["fields"]:
        obj["fields"] = {
            ("event" if name == V1_EVENT else name): value for name, value in obj["fields"].items()
        }
    return obj


def _check_shape(data) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ExportError(_("This file is not a paisai event archive."), "format")
    if data.get("version") != VERSION:
        raise ExportError(
            _("Archive version %(version)s is not supported (expected %(expected)s)."),
            "version",
            version=data.get("version"),
            expected=VERSION,
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
                _("Unknown kind of object “%(label)s” in the archive."),
                "objects",
                label=label,
            ) from None
        if model._default_manager.filter(pk__in=pks).exists():
            raise ExportError(
                _(
                    "The database already holds %(model)s records with the archive's ids: "
                    "import into an empty database."
                ),
                "objects",
                model=model._meta.verbose_name_plural,
            )


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
def _check_settings(objects: list[dict]) -> None:
    """The event's preset and settings through the rules engine's event-settings schema."""
    event_model = apps.get_model("tournaments", "Event")
    for obj in objects:
        if isinstance(obj, dict) and obj.get("model") == event_model._meta.label_lower:
            fields = obj.get("fields") if isinstance(obj.get("fields"), dict) else {}
            values = {name: fields.get(name) for name in ("game", "preset", "settings")}
            try:
                event_model(**values).get_preset()
            except RulesError as err:
                raise ExportError(err.localized(get_language()), err.field) from None


def import_archive(data) -> object:
    """Load an archive (of this version, or of version 1); returns the event. ExportError says
    what is wrong."""
    data = _upgrade(data)
    _check_shape(data)
    event_model = apps.get_model("tournaments", "Event")
    if event_model.objects.filter(slug=data.get("event")).exists():
        raise ExportError(
            _("An event with the short name “%(slug)s” already exists."),
            "event",
            slug=data["event"],
        )
    _check_free(data["objects"])
    _check_settings(data["objects"])
    _ensure_users(data["users"])
    models = set()
    try:
        for item in serializers.deserialize(
            "python", data["objects"], handle_forward_references=False
        ):
            if isinstance(item.object, apps.get_model("tournaments", "TableKey")):
                item.object.key = new_key()  # keys are not archived: a new one
            item.save()
            models.add(type(item.object))
    except (DeserializationError, ValueError, TypeError, KeyError) as error:
        raise ExportError(_("The archive is damaged: %(error)s"), "objects", error=error) from None
    _reset_sequences(models)
    return event_model.objects.get(slug=data["event"])


def _reset_sequences(models) -> None:
    """Primary keys were given explicitly: move the id sequences past them (PostgreSQL)."""
    statements = connection.ops.sequence_reset_sql(no_style(), list(models))
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)
