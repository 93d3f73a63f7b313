"""Login throttling (django-axes) on the login page, the admin and the API; the lockout
answer; the event officials' view of locked logins and the unlock (issue 31: lockouts that
nobody can aim).

- A lock is by username *and* address (``AXES_LOCKOUT_PARAMETERS``): wrong passwords for
  the chief from somebody else's phone lock that pair, and never the chief's own phone.
- A table link is no pass: its holder is throttled like anyone (issue 39).
- At an address where the user logged in before the limit is relaxed
  (``PAISAI_LOGIN_KNOWN_ADDRESS_FACTOR`` times as many failures), never lifted; at any other
  address also the account's ceiling across addresses and the address's limit across
  usernames apply (:func:`wide_lock`; issue 39).
- The lock's length escalates with the pair's failures over the last day
  (:func:`cool_off`): 1 minute after the first five, then 2, 4, 8, at most
  ``PAISAI_LOGIN_LOCK_MINUTES``.
- Captains' signatures on a table phone are checked apart (:func:`check_captain`), with
  their own limit: they never lock a login.
- An impossible username (NUL, longer than any username) is a failed login, never a 500.
A locked login is refused before its password is hashed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import Q
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments import permissions
from tournaments.errors import Code, Forbidden
from tournaments.models import Event, EventRole

from .audit import client_address, log_action

USERNAME_MAX = 150  # Django's username column


def account_limit() -> int:
    return settings.AXES_FAILURE_LIMIT


def plain_username(value) -> str:
    """A username as the throttle stores it: text without NUL, no longer than the column."""
    return str(value or "").replace("\x00", "")[:USERNAME_MAX]


def axes_username(request, credentials: dict | None) -> str:
    """AXES_USERNAME_CALLABLE: the username of the attempt (login form or basic auth)."""
    credentials = credentials or {}
    name = credentials.get(get_user_model().USERNAME_FIELD)
    if name is None and request is not None and request.method == "POST":
        name = request.POST.get("username")
    return plain_username(name)


def known_login(request, username: str) -> bool:
    """The user logged in from this address before (axes' access log). A table link is no
    such proof: whoever holds one is throttled like anyone (issue 39)."""
    if not username or request is None:
        return False
    address = getattr(request, "axes_ip_address", None) or client_address(request)
    return AccessLog.objects.filter(username=username, ip_address=address).exists()


def cool_off(request=None) -> timedelta:
    """AXES_COOLOFF_TIME: 1 minute after the first ``limit`` failures of a username at an
    address within a day, doubling with each further ``limit``, at most the configured
    minutes (an escalating delay, not one long lock anybody can renew)."""
    longest = lock_minutes()
    if request is None:
        return timedelta(minutes=longest)
    address = getattr(request, "axes_ip_address", None) or client_address(request)
    username = axes_username(request, None)
    recent = AccessFailureLog.objects.filter(
        ip_address=address, attempt_time__gte=timezone.now() - timedelta(days=1)
    )
    if username:
        recent = recent.filter(username=username)
    rounds = max(0, recent.count() // max(account_limit(), 1) - 1)
    return timedelta(minutes=min(longest, 2 ** min(rounds, 10)))


def known_factor() -> int:
    return max(1, int(settings.PAISAI_LOGIN_KNOWN_ADDRESS_FACTOR))


def known_limit() -> int:
    """Failures of a username at an address where it logged in before that lock the pair:
    more room for one's own typos, never unlimited (issue 39)."""
    return account_limit() * known_factor()


def account_ceiling() -> int:
    return int(settings.PAISAI_LOGIN_ACCOUNT_CEILING)


def address_limit() -> int:
    return int(settings.PAISAI_LOGIN_ADDRESS_LIMIT)


@dataclass(frozen=True)
class Lock:
    """Why a login is refused: ``pair`` (this username at this address), ``account`` (this
    username's failures from every address) or ``address`` (every username's failures from
    this address); and for how many seconds at most."""

    reason: str
    seconds: int


def _seconds_left(failures) -> int:
    """Until the oldest failure counted drops out of the window."""
    oldest = failures.order_by("attempt_time").values_list("attempt_time", flat=True).first()
    if oldest is None:
        return 1
    left = oldest + timedelta(minutes=lock_minutes()) - timezone.now()
    return max(1, math.ceil(left.total_seconds()))


def wide_lock(address: str, username: str) -> Lock | None:
    """The limits across pairs, over the last ``PAISAI_LOGIN_LOCK_MINUTES``: a username's
    failures from all addresses together (``PAISAI_LOGIN_ACCOUNT_CEILING``: many addresses
    guessing one account) and an address's failures for all usernames together
    (``PAISAI_LOGIN_ADDRESS_LIMIT``: one address spraying many). They lock the account at
    unknown addresses, or the address for usernames that never logged in there, so nobody
    can lock a user out of a phone the user has logged in from."""
    recent = AccessFailureLog.objects.filter(
        attempt_time__gte=timezone.now() - timedelta(minutes=lock_minutes())
    )
    if username:
        account = recent.filter(username=username)
        if account.count() >= account_ceiling():
            return Lock("account", _seconds_left(account))
    if address:
        sprayed = recent.filter(ip_address=address)
        if sprayed.count() >= address_limit():
            return Lock("address", _seconds_left(sprayed))
    return None


class LoginThrottle(AxesDatabaseHandler):
    """Axes' database handler with paisai's limits (axes compares what
    :meth:`get_failures` answers with ``AXES_FAILURE_LIMIT``):

    - a username at an address: ``PAISAI_LOGIN_ACCOUNT_LIMIT`` failures, or that many times
      ``PAISAI_LOGIN_KNOWN_ADDRESS_FACTOR`` where the user logged in before (relaxed, never
      lifted: issue 39);
    - elsewhere, also the account's ceiling across addresses and the address's limit across
      usernames (:func:`wide_lock`).

    The reason of a lock is kept on the request (``paisai_lock``) for the answer's words."""

    def get_failures(self, request, credentials=None) -> int:
        pair = super().get_failures(request, credentials)
        username = axes_username(request, credentials)
        limit = account_limit()
        if known_login(request, username):
            lock = Lock("pair", 0) if pair >= known_limit() else None
        elif pair >= limit:
            lock = Lock("pair", 0)
        else:
            address = getattr(request, "axes_ip_address", None) or client_address(request)
            lock = wide_lock(address, username)
        if lock is None:
            return min(pair, limit - 1)
        if request is not None:
            request.paisai_lock = lock
        return max(pair, limit)


def lock_minutes() -> int:
    return int(settings.PAISAI_LOGIN_LOCK_MINUTES)


def lockout_message(minutes: int | None = None, reason: str = "pair") -> str:
    params = {"minutes": minutes or lock_minutes()}
    if reason == "account":
        return (
            gettext(
                "Too many failed logins for this username from different addresses: wait "
                "%(minutes)s minutes, log in from a phone you have used before, or ask the chief "
                "referee to lift the lock."
            )
            % params
        )
    if reason == "address":
        return (
            gettext(
                "Too many failed logins from this address: wait %(minutes)s minutes, or log in "
                "from a phone you have used before."
            )
            % params
        )
    return (
        gettext(
            "Too many failed logins for this username from this address: wait %(minutes)s "
            "minutes, log in from a phone you have used before, or ask the chief referee to "
            "lift the lock."
        )
        % params
    )


def lockout_response(request, original_response=None, credentials=None):
    """Axes' answer to a locked login: JSON on the API, the login page's message elsewhere;
    ``Retry-After`` says when the lock ends (this pair's, or the wider one's)."""
    status = 429
    lock = getattr(request, "paisai_lock", None) or Lock("pair", 0)
    seconds = lock.seconds or int(cool_off(request).total_seconds())
    minutes = max(1, math.ceil(seconds / 60))
    message = lockout_message(minutes, lock.reason)
    if request.path.startswith("/api/"):
        body = {"error": message, "field": "username", "code": Code.LOGIN_LOCKED}
        response = JsonResponse(body, status=status)
    else:
        response = render(
            request,
            "registration/locked.html",
            {"message": message},
            status=status,
        )
    response["Retry-After"] = str(seconds)
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
        attempt_time__gte=timezone.now() - timedelta(minutes=lock_minutes())
    )


def may_unlock(user, event: Event) -> bool:
    """The event's own officials (permission ``login.unlock``); being staff is not enough."""
    return permissions.may(user, event, "login.unlock")


def event_usernames(event: Event) -> set[str]:
    """The event's people whose locks its officials may lift: never staff or superusers."""
    return set(
        EventRole.objects.filter(
            event=event, user__is_staff=False, user__is_superuser=False
        ).values_list("user__username", flat=True)
    )


def failed_logins(event: Event) -> list[LockedLogin]:
    """The event's people with failed logins in the cool-off time (locked ones first)."""
    rows: dict[str, list] = {}
    for attempt in _recent().filter(username__in=event_usernames(event)):
        row = rows.setdefault(attempt.username, [0, set(), False])
        row[0] += attempt.failures_since_start
        row[2] = row[2] or attempt.failures_since_start >= account_limit()
        if attempt.ip_address:
            row[1].add(attempt.ip_address)
    found = [
        LockedLogin(username, failures, locked, sorted(addresses))
        for username, (failures, addresses, locked) in rows.items()
    ]
    return sorted(found, key=lambda row: (not row.locked, row.username))


class UnlockRefused(Forbidden):
    """Lifting this lock is not for this user, or not for this username."""


def in_event_before_lock(event: Event, username: str) -> bool:
    """Did ``username`` hold a role in ``event`` before the failed logins of its lock began
    (the first within a day)? An organiser cannot add an account and then lift its lock, to
    guess its password again (issue 39)."""
    first = (
        AccessFailureLog.objects.filter(
            username=username, attempt_time__gte=timezone.now() - timedelta(days=1)
        )
        .order_by("attempt_time")
        .values_list("attempt_time", flat=True)
        .first()
    )
    if first is None:
        return True
    held = EventRole.objects.filter(event=event, user__username=username)
    return held.filter(Q(granted_at__isnull=True) | Q(granted_at__lte=first)).exists()


def unlock(event: Event, user, username: str, source: str = "") -> int:
    """Lift the locks of ``username`` (one of the event's people, not staff) at every
    address; returns the number of attempt records removed. Logged."""
    if not may_unlock(user, event):
        raise UnlockRefused(_("Only the chief referee or the organiser may lift a lock."))
    if username not in event_usernames(event):
        raise UnlockRefused(
            _("%(name)s is not one of this event's people whose lock you may lift."),
            "username",
            name=username,
        )
    if not in_event_before_lock(event, username):
        raise UnlockRefused(
            _(
                "%(name)s was added to this event after their login was locked: the lock ends "
                "by itself, or an administrator lifts it."
            ),
            "username",
            name=username,
        )
    attempts = AccessAttempt.objects.filter(username=username)
    addresses = sorted(set(attempts.exclude(ip_address=None).values_list("ip_address", flat=True)))
    count, _detail = attempts.delete()
    # and the account's ceiling across addresses (its failures of the window) starts again
    AccessFailureLog.objects.filter(
        username=username, attempt_time__gte=timezone.now() - timedelta(minutes=lock_minutes())
    ).delete()
    log_action(
        event,
        user,
        "login.unlock",
        None,
        data={"username": username, "addresses": len(addresses), "records": count},
        source=source,
    )
    return count


# --- captains signing on a table phone: counted apart from logins ---------------------------


def captain_sign_limit() -> int:
    return int(settings.PAISAI_CAPTAIN_SIGN_LIMIT)


SIGN_WINDOW = 900  # seconds: wrong signatures are counted per quarter of an hour


class CaptainSignRefused(Forbidden):
    """A captain's signature on a table phone refused: the words say what to do next."""

    code = Code.CAPTAIN_SIGN_REFUSED


class CaptainSignLocked(CaptainSignRefused):
    """Too many wrong signatures for one username on one phone: signing waits."""

    code = Code.CAPTAIN_SIGN_LOCKED


def _sign_count(request, username: str) -> tuple[str, int, str]:
    """(the username, the quarter of an hour, the cache key counting its wrong signatures
    from this phone's address)."""
    name = plain_username(username)
    window = math.floor(timezone.now().timestamp() / SIGN_WINDOW)
    return name, window, f"paisai:captain-sign:{window}:{client_address(request)}:{name}"


def check_captain(request, username: str, password: str):
    """The user whose password this is, or None; at most ``PAISAI_CAPTAIN_SIGN_LIMIT`` wrong
    signatures a username a phone address in the cool-off time (then
    :class:`CaptainSignLocked` until it passes). Counted apart from logins: a wrong
    signature never locks anybody's login."""
    name, window, key = _sign_count(request, username)
    if (cache.get(key) or 0) >= captain_sign_limit():
        raise _sign_locked(name, window)
    user = get_user_model().objects.filter(username=name, is_active=True).first()
    if name == username and user is not None and user.check_password(password):
        return user
    if user is None:
        get_user_model()().set_password(password)  # the same time whether the user exists
    try:
        cache.add(key, 0, SIGN_WINDOW)
        cache.incr(key)
    except ValueError:
        cache.set(key, 1, SIGN_WINDOW)
    return None


def captain_sign_refusal(request, username: str) -> CaptainSignRefused:
    """The refusal of a signature that is not a captain's of the match (a wrong password, or
    somebody else's login), with the tries left before signing pauses, or the pause itself."""
    name, window, key = _sign_count(request, username)
    left = captain_sign_limit() - (cache.get(key) or 0)
    if left <= 0:
        return _sign_locked(name, window)
    return CaptainSignRefused(
        _(
            "Not signed: the username or the password is wrong, or %(name)s is not a captain "
            "of either team of this match. The captain types their own username and password "
            "again; after %(left)s more wrong tries signing pauses for up to %(minutes)s "
            "minutes on this phone."
        ),
        "password",
        name=name[:40] or "–",
        left=left,
        minutes=SIGN_WINDOW // 60,
    )


def _sign_locked(name: str, window: int) -> CaptainSignLocked:
    until = datetime.fromtimestamp((window + 1) * SIGN_WINDOW, tz=UTC)
    return CaptainSignLocked(
        _(
            "Signing as %(name)s is paused on this phone until %(until)s: too many wrong "
            "passwords. Meanwhile the captain can log in on their own phone and confirm under "
            "“My match”, or ask the chief referee to confirm the result. Their login is not "
            "locked."
        ),
        "username",
        name=name[:40] or "–",
        until=timezone.localtime(until).strftime("%H:%M"),
    )


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
