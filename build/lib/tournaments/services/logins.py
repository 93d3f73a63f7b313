"""Login throttling (django-axes): per account and per address, on the login page, the admin
and the API; the lockout answer; the event officials' view of locked logins and the unlock.

An account is locked after ``AXES_FAILURE_LIMIT`` failures within the cool-off time, an
address after ``PAISAI_LOGIN_ADDRESS_LIMIT`` (higher: a venue's referees share one address).
A locked login is refused before its password is hashed.
"""

from __future__ import annotations

from dataclasses import dataclass

from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import permissions
from tournaments.models import Tournament, TournamentRole

from .audit import log_action


def account_limit() -> int:
    return settings.AXES_FAILURE_LIMIT


def address_limit() -> int:
    return getattr(settings, "PAISAI_LOGIN_ADDRESS_LIMIT", 30)


def _failures(queryset) -> int:
    return queryset.aggregate(n=Sum("failures_since_start"))["n"] or 0


class LoginThrottle(AxesDatabaseHandler):
    """Axes' database handler with two limits: one per account, a higher one per address."""

    def get_failures(self, request, credentials=None) -> int:
        by_account, by_address = (
            _failures(attempts) for attempts in self.get_user_attempts(request, credentials)
        )
        if by_address >= address_limit():
            return max(by_account, account_limit())
        return by_account


def lock_minutes() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)


def lockout_message() -> str:
    return _(
        "Too many failed logins: this account or this address is locked for %(minutes)s "
        "minutes. The chief referee or an administrator can lift the lock."
    ) % {"minutes": lock_minutes()}


def lockout_response(request, original_response=None, credentials=None):
    """Axes' answer to a locked login: JSON on the API, the login page's message elsewhere."""
    status = 429
    if request.path.startswith("/api/"):
        response = JsonResponse({"error": lockout_message(), "field": "username"}, status=status)
    else:
        response = render(request, "registration/locked.html",
                          {"message": lockout_message()}, status=status)  # fmt: skip
    response["Retry-After"] = str(lock_minutes() * 60)
    return response


# --- officials: who is locked, and lifting a lock -------------------------------------------


@dataclass(frozen=True)
class LockedLogin:
    username: str
    failures: int
    locked: bool
    addresses: list[str]


def _recent():
    return AccessAttempt.objects.filter(
        attempt_time__gte=timezone.now() - settings.AXES_COOLOFF_TIME
    )


def may_unlock(user, tournament: Tournament) -> bool:
    return bool(getattr(user, "is_staff", False)) or permissions.may(
        user, tournament, "login.unlock"
    )


def event_usernames(tournament: Tournament) -> set[str]:
    return set(
        TournamentRole.objects.filter(tournament=tournament).values_list(
            "user__username", flat=True
        )
    )


def failed_logins(tournament: Tournament) -> list[LockedLogin]:
    """The event's people with failed logins in the cool-off time (locked ones first)."""
    rows: dict[str, list] = {}
    for attempt in _recent().filter(username__in=event_usernames(tournament)):
        row = rows.setdefault(attempt.username, [0, set()])
        row[0] += attempt.failures_since_start
        if attempt.ip_address:
            row[1].add(attempt.ip_address)
    address_failures = {
        address: _failures(_recent().filter(ip_address=address))
        for address in {a for _n, addresses in rows.values() for a in addresses}
    }
    found = []
    for username, (failures, addresses) in rows.items():
        locked = failures >= account_limit() or any(
            address_failures[a] >= address_limit() for a in addresses
        )
        found.append(LockedLogin(username, failures, locked, sorted(addresses)))
    return sorted(found, key=lambda row: (not row.locked, row.username))


class UnlockRefused(Exception):
    status = 403

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def unlock(tournament: Tournament, user, username: str, source: str = "") -> int:
    """Lift the lock of ``username`` (one of the event's people) and of the addresses it was
    tried from; returns the number of attempt records removed. Logged."""
    if not may_unlock(user, tournament):
        raise UnlockRefused(_("Only the chief referee or the organiser may lift a lock."))
    if username not in event_usernames(tournament) and not getattr(user, "is_staff", False):
        raise UnlockRefused(_("%(name)s holds no role in this event.") % {"name": username})
    attempts = AccessAttempt.objects.filter(username=username)
    addresses = sorted(set(attempts.exclude(ip_address=None).values_list("ip_address", flat=True)))
    count, _detail = attempts.delete()
    if addresses:
        count += AccessAttempt.objects.filter(ip_address__in=addresses).delete()[0]
    log_action(tournament, user, "login.unlock", None,
               data={"username": username, "addresses": len(addresses), "records": count},
               source=source)  # fmt: skip
    return count


# --- API tokens: what API clients use instead of a password --------------------------------


def api_token(user):
    from rest_framework.authtoken.models import Token

    return Token.objects.filter(user=user).first()


def issue_api_token(user, source: str = "") -> str:
    """A new API token for ``user`` (the previous one stops working); returns its key, shown
    once. Logged without the key."""
    from rest_framework.authtoken.models import Token

    Token.objects.filter(user=user).delete()
    token = Token.objects.create(user=user)
    log_action(None, user, "api_token.issue", None, source=source)
    return token.key


def revoke_api_token(user, source: str = "") -> bool:
    from rest_framework.authtoken.models import Token

    count, _detail = Token.objects.filter(user=user).delete()
    if count:
        log_action(None, user, "api_token.revoke", None, source=source)
    return bool(count)
