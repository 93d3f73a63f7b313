"""Who may create events: the event-creator right, given and taken by a site administrator
on a page (or open to every signed-up user with OPEN_EVENT_CREATION=1)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournaments.errors import Forbidden
from tournaments.services.audit import log_action
from tournaments.services.rounds import RoundError

CODENAME = "add_event"


def creator_permission() -> Permission:
    return Permission.objects.get(content_type__app_label="tournaments", codename=CODENAME)


def creators():
    """Users holding the right directly (superusers always may)."""
    return (
        get_user_model().objects.filter(user_permissions=creator_permission()).order_by("username")
    )


def _require_site_admin(admin) -> None:
    if not (admin is not None and admin.is_authenticated and admin.is_superuser):
        raise Forbidden(_("Only a site administrator may give or take the event-creator right."))


@transaction.atomic
def set_creator(admin, username: str, allowed: bool):
    _require_site_admin(admin)
    user = get_user_model().objects.filter(username=(username or "").strip()).first()
    if user is None:
        raise RoundError(_("No user “%(name)s”."), "username", name=username)
    if allowed:
        user.user_permissions.add(creator_permission())
    else:
        user.user_permissions.remove(creator_permission())
    log_action(
        None,
        admin,
        "creator.grant" if allowed else "creator.revoke",
        user,
        data={"user": user.username},
    )
    return user
