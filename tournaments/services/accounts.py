"""Accounts without the admin: the organiser invites officials by name and makes captain
logins in bulk; each new person gets a one-time login link (and its QR) to log in the first
time and choose a password.

- :func:`invite_official` — a new account named as the organiser typed it, the role in this
  event, a one-time link. The organiser never types a username, so nothing here says which
  usernames exist (issue 31);
- :func:`make_captain_logins` — for each chosen team, its captain's account (made once, named
  after the team's first player) and a fresh one-time link; an earlier unused link of that
  captain stops working;
- :func:`use_link` — the link logs its person in once, before it expires
  (``PAISAI_LOGIN_LINK_DAYS``, 14 by default); a used, expired or replaced link says so;
- :func:`captain_links` — the live captain links by team (printed on the team badges).

A person who already has an account elsewhere opens the link while logged in and takes the
role into that account (:func:`use_link` with ``current``).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import permissions
from tournaments.errors import Code, NotFound, ServiceError
from tournaments.models import Event, EventRole, LoginLink, Role, RoleInvitation, Team
from tournaments.validation import whole_number

from . import roles as role_service
from .audit import log_action
from .find_table import spellings

NAME_MAX = 60


class AccountError(ServiceError):
    """An invitation or a login link refused."""


def link_days() -> int:
    return settings.PAISAI_LOGIN_LINK_DAYS


def link_path(link: LoginLink) -> str:
    return reverse("tournaments:login-link", args=[link.key])


def _username(base: str) -> str:
    """A new, unused username from ``base`` (its pinyin, letters and digits) and a random
    suffix: never derived from whether another username exists."""
    user_model = get_user_model()
    stem = re.sub(r"[^a-z0-9]+", "", spellings(base)[1])[:20] or "user"
    while True:
        candidate = f"{stem}-{secrets.token_hex(3)}"
        if not user_model.objects.filter(username=candidate).exists():
            return candidate


def _new_user(name: str):
    user = get_user_model()(username=_username(name), first_name=name[:150])
    user.set_unusable_password()
    user.save()
    return user


def _issue(event: Event, user, by, purpose: str, team: Team | None = None) -> LoginLink:
    """A fresh link for ``user`` in ``event``; their earlier unused links stop working."""
    now = timezone.now()
    LoginLink.objects.filter(
        event=event, user=user, used_at__isnull=True, expires_at__gt=now
    ).update(expires_at=now)
    return LoginLink.objects.create(
        event=event,
        user=user,
        team=team,
        purpose=purpose,
        created_by_name=by.get_username() if by is not None else "",
        expires_at=now + timedelta(days=link_days()),
    )


def clean_name(name: object) -> str:
    text = " ".join(str(name or "").split())
    if not text:
        raise AccountError(_("Type the person's name."), "name")
    if len(text) > NAME_MAX:
        raise AccountError(_("A name has at most %(max)s characters."), "name", max=NAME_MAX)
    return text


@dataclass
class Invitation:
    user: object
    role: str
    link: LoginLink


def invite_official(event: Event, by, name: object, role: str, source: str = "") -> Invitation:
    """A new account for an official named ``name`` with ``role`` in this event, and its
    one-time login link."""
    permissions.require(by, event, "role.grant")
    if role not in permissions.OFFICIALS:
        raise AccountError(
            _("Choose an official's role: captains are made from the team list."), "role"
        )
    name = clean_name(name)
    with transaction.atomic():
        user = _new_user(name)
        role_service.grant(event, by, user, role, None, source)
        link = _issue(event, user, by, LoginLink.Purpose.OFFICIAL)
        log_action(
            event,
            by,
            "account.invite",
            user,
            data={"user": user.username, "name": name, "role": role},
            source=source,
        )
    return Invitation(user, role, link)


def reissue(event: Event, by, held: EventRole, source: str = "") -> LoginLink:
    """A new one-time link for a person holding a role in this event (a lost link); only for
    people who have never set a password of their own (an account with a password logs in)."""
    permissions.require(by, event, "role.grant")
    if held.event_id != event.pk:
        raise AccountError(_("This role is not in this event."), "role")
    if held.user.has_usable_password() or held.user.is_staff or held.user.is_superuser:
        raise AccountError(
            _(
                "This person has chosen a password: they log in with it (a forgotten password "
                "is reset from the login page)."
            ),
            "role",
        )
    purpose = LoginLink.Purpose.CAPTAIN if held.role == Role.CAPTAIN else LoginLink.Purpose.OFFICIAL
    with transaction.atomic():
        link = _issue(event, held.user, by, purpose, held.team)
        log_action(
            event,
            by,
            "account.link",
            held.user,
            data={"user": held.user.username},
            source=source,
        )
    return link


@dataclass
class CaptainLogin:
    team: Team
    user: object
    link: LoginLink | None
    created: bool


def make_captain_logins(event: Event, by, team_ids, source: str = "") -> list[CaptainLogin]:
    """For each team of ``team_ids``: its captain (a new account named after the team's first
    player when the team has none) and a fresh one-time link. A captain who has chosen a
    password keeps logging in with it (no link)."""
    permissions.require(by, event, "role.grant")
    ids = {pk for pk in map(whole_number, team_ids) if pk is not None}
    if not ids:
        raise AccountError(_("Select the teams whose captains need a login."), "team")
    teams = (
        Team.objects.filter(event=event, pk__in=ids)
        .prefetch_related("players")
        .order_by("seed", "name")
    )
    captains = {
        held.team_id: held.user
        for held in EventRole.objects.filter(
            event=event, role=Role.CAPTAIN, team_id__in=ids
        ).select_related("user")
    }
    made = []
    with transaction.atomic():
        for team in teams:
            user = captains.get(team.pk)
            created = user is None
            if created:
                players = sorted(team.players.all(), key=lambda p: p.seat_order)
                name = players[0].name if players else team.name
                user = _new_user(name)
                role_service.grant(event, by, user, Role.CAPTAIN, team, source)
            link = None
            if not user.has_usable_password():
                link = _issue(event, user, by, LoginLink.Purpose.CAPTAIN, team)
            made.append(CaptainLogin(team, user, link, created))
        log_action(
            event,
            by,
            "account.captain",
            None,
            data={"teams": len(made), "new": sum(m.created for m in made)},
            source=source,
        )
    return made


def captain_links(event: Event) -> dict[int, LoginLink]:
    """team id → its captain's live (unused, unexpired) link: the team badge prints it."""
    now = timezone.now()
    live = LoginLink.objects.filter(
        event=event,
        purpose=LoginLink.Purpose.CAPTAIN,
        used_at__isnull=True,
        expires_at__gt=now,
        team__isnull=False,
    ).order_by("created_at")
    return {link.team_id: link for link in live}


def live_links(event: Event) -> dict[int, LoginLink]:
    """user id → their live link in this event (the accounts page shows it again)."""
    now = timezone.now()
    live = LoginLink.objects.filter(event=event, used_at__isnull=True, expires_at__gt=now).order_by(
        "created_at"
    )
    return {link.user_id: link for link in live}


REFUSED = _(
    "This login link has been used, has expired or was replaced by a newer one. "
    "Ask the organiser for a new link."
)


def find_link(key: str) -> LoginLink | None:
    """The live link of ``key`` (None when unknown, used, expired or the account closed)."""
    key = str(key or "")
    if not key or len(key) > 64:
        return None
    link = LoginLink.objects.select_related("user", "event", "team").filter(key=key).first()
    if link is None or link.used_at is not None or link.expires_at <= timezone.now():
        return None
    if not link.user.is_active:
        return None
    return link


def use_link(key: str, current=None, source: str = "") -> LoginLink:
    """Spend the link of ``key``: the person to log in is the link's (returned with the
    link). With ``current`` (someone already logged in, not the link's account), the roles
    the link's account holds in its event move to ``current`` and the new account is closed:
    a person with an account from another event keeps one login."""
    with transaction.atomic():
        link = find_link(key)
        if link is None:
            raise AccountError(REFUSED, "link")
        link = LoginLink.objects.select_for_update().select_related("user", "event").get(pk=link.pk)
        if link.used_at is not None:
            raise AccountError(REFUSED, "link")
        link.used_at = timezone.now()
        link.save(update_fields=["used_at"])
        moved = None
        if current is not None and current.is_authenticated and current.pk != link.user_id:
            moved = link.user
            for held in EventRole.objects.filter(user=moved, event=link.event):
                EventRole.objects.get_or_create(
                    user=current,
                    event=link.event,
                    role=held.role,
                    defaults={"team": held.team, "granted_at": link.used_at},
                )
                held.delete()
            moved.is_active = False
            moved.save(update_fields=["is_active"])
            link.user = current
        log_action(
            link.event,
            link.user,
            "account.link_used",
            link.user,
            data={
                "user": link.user.get_username(),
                **({"merged": moved.get_username()} if moved else {}),
            },
            source=source,
        )
    return link


# --- roles for accounts from outside the event: only with their consent (issue 39) --------

OFFERED = _(
    "If an account has this username, it is asked to accept the role; the role is given once "
    "it does."
)


def offer_role(
    event: Event, by, username: object, role: str, team: Team | None = None, source: str = ""
) -> EventRole | None:
    """A role for the account named ``username``. A person of this event (the organiser sees
    them on the roles page) gets it at once, returned; any other account is sent an
    invitation it accepts or declines (:func:`answer_invitation`), and None is returned —
    the same answer, and the same audit entry, whether the username exists or not."""
    permissions.require(by, event, "role.grant")
    team = role_service.checked_role(event, role, team)
    name = str(username or "").replace("\x00", "").strip()[:150]
    if not name:
        raise AccountError(_("Type the person's username."), "username")
    user = get_user_model().objects.filter(username=name, is_active=True).first()
    if user is not None and EventRole.objects.filter(event=event, user=user).exists():
        if EventRole.objects.filter(event=event, user=user, role=role).exists():
            raise AccountError(_("This user already has this role here."), "role", Code.CONFLICT)
        held, _created = role_service.grant(event, by, user, role, team, source)
        return held
    now = timezone.now()
    with transaction.atomic():
        if user is not None:
            RoleInvitation.objects.filter(
                event=event, user=user, role=role, answered_at__isnull=True
            ).update(expires_at=now)  # the newest offer replaces an earlier one
            RoleInvitation.objects.create(
                event=event,
                user=user,
                role=role,
                team=team,
                invited_by=by,
                expires_at=now + timedelta(days=link_days()),
            )
        log_action(
            event, by, "role.offer", None, data={"username": name, "role": role}, source=source
        )
    return None


def open_invitations(user):
    """The invitations ``user`` has not answered yet (unexpired), newest first."""
    if user is None or not user.is_authenticated:
        return RoleInvitation.objects.none()
    return RoleInvitation.objects.filter(
        user=user, answered_at__isnull=True, expires_at__gt=timezone.now()
    ).select_related("event", "team", "invited_by")


def answer_invitation(user, pk, accept: bool, source: str = "") -> RoleInvitation:
    """The account's own answer to an invitation (nobody answers for another): accepted, the
    role is given; declined, nothing. Logged either way."""
    with transaction.atomic():
        invitation = (
            open_invitations(user)
            .select_for_update(of=("self",))
            .filter(pk=whole_number(pk))
            .first()
        )
        if invitation is None:
            raise NotFound(_("This invitation has been answered, has expired or is not yours."))
        event = invitation.event
        if accept and not (
            invitation.invited_by is not None
            and permissions.may(invitation.invited_by, event, "role.grant")
        ):
            raise AccountError(
                _("Whoever offered this role no longer gives roles in this event."), "invitation"
            )
        invitation.answered_at, invitation.accepted = timezone.now(), accept
        invitation.save(update_fields=["answered_at", "accepted"])
        data = {"user": user.username, "role": invitation.role}
        if not accept:
            log_action(event, user, "role.decline", None, data=data, source=source)
            return invitation
        held, _created = EventRole.objects.get_or_create(
            user=user,
            event=event,
            role=invitation.role,
            defaults={"team": invitation.team, "granted_at": invitation.answered_at},
        )
        log_action(event, user, "role.accept", held, data=data, source=source)
    return invitation


# --- finding a team by what a person types ---------------------------------------------------

MAX_TEAM_ANSWERS = 20


def search_teams(event: Event, query: object, limit: int = MAX_TEAM_ANSWERS) -> list[Team]:
    """Teams whose name, player, pinyin (full or initials) or number (seed) matches
    ``query`` (the roles page's team search): an exact name or number first."""
    text = " ".join(str(query or "").split()).lower()[:50]
    if not text:
        return []
    teams = list(Team.objects.filter(event=event).prefetch_related("players").order_by("name"))
    if whole_number(text) is not None:  # a seed ("²" is a digit to isdigit, no number)
        return [team for team in teams if team.seed == int(text)][:limit]
    squeezed = text.replace(" ", "")
    spelled = squeezed.isascii() and squeezed.isalnum()
    exact, found = [], []
    for team in teams:
        names = [team.name] + [p.name for p in team.players.all()]
        if team.name.lower() == text:
            exact.append(team)
            continue
        hit = any(text in name.lower() for name in names)
        if not hit and spelled:
            hit = any(
                initials.startswith(squeezed) or full.startswith(squeezed)
                for initials, full in (spellings(name) for name in names)
            )
        if hit:
            found.append(team)
    return (exact + found)[:limit]
