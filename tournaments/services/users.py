"""Users who did anything are deactivated, never deleted: their name stays on the record.

A user has *history* once any record of the event apps points at them (a result version they
entered or confirmed, a confirmation, an audit entry, a ruling, a vote …); roles and table
assignments are not history. Deleting such a user is refused (a ``pre_delete`` guard, whatever
deletes); the admin offers deactivation instead.
"""

from __future__ import annotations

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.errors import Code, ServiceError

from .audit import log_action

HISTORY_APPS = ("tournaments", "arbitration")
NOT_HISTORY = {"tournaments.eventrole", "tournaments.tableassignment", "tournaments.loginlink"}


class UserHasHistory(ServiceError):
    """A user with history is never deleted (409): deactivate the account instead."""

    code = Code.USER_HAS_HISTORY

    def __init__(self, user) -> None:
        super().__init__(
            _(
                "%(name)s has entered, confirmed, ruled or voted on records: deactivate the "
                "account instead of deleting it."
            ),
            None,
            name=user.get_username(),
        )


def history_fields() -> list[tuple[type[models.Model], str]]:
    """(model, field name) of every foreign key to the user model that is history."""
    user_model = get_user_model()
    found = []
    for label in HISTORY_APPS:
        for model in apps.get_app_config(label).get_models():
            if model._meta.label_lower in NOT_HISTORY:
                continue
            for field in model._meta.fields:
                if isinstance(field, models.ForeignKey) and field.related_model is user_model:
                    found.append((model, field.name))
    return found


def has_history(user) -> bool:
    if user is None or user.pk is None:
        return False
    return any(
        model._default_manager.filter(**{name: user.pk}).exists()
        for model, name in history_fields()
    )


def refuse_deleting_history(sender, instance, **kwargs) -> None:
    """``pre_delete`` of the user model: a user with history is never deleted."""
    if has_history(instance):
        raise UserHasHistory(instance)


def deactivate(user, by, source: str = "") -> None:
    """Close the account (no login, no API); every record keeps its name. Logged."""
    if not user.is_active:
        return
    user.is_active = False
    user.save(update_fields=["is_active"])
    log_action(
        None, by, "user.deactivate", user, data={"username": user.get_username()}, source=source
    )
