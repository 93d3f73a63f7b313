"""A public mirror: a read-only site following the venue box through PostgreSQL replication.

``PAISAI_MIRROR_OF=<the venue site's address>`` makes this site a mirror. Its database is a
hot standby of the venue's (streaming replication; README, "Public mirrors"), read-only at
the database level, so the site must never write: only the public pages, the projector,
find-my-table and the public API are served (from this site's own cache, keyed on the event
revision the standby has replayed); every other request — a write, a login, a referee's or
organiser's page — gets a page (or, under ``/api/``, the API's JSON error) saying that this
is a mirror, with a link to the same address on the venue site. Sessions are signed cookies
and messages cookies (settings), so even an anonymous visit writes no row.

How fresh a mirror is travels with the data: :func:`data_as_of` is the venue's time up to
which the standby has everything (from the replication stream's own timestamps), and each
public page shows when its results last changed (``EventRevision.at``, written by the bump
in the venue's transaction).
"""

from __future__ import annotations

import re
import threading
import time
from datetime import datetime

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import Code
from tournaments.sql import standby

# What a mirror serves (GET and HEAD only): the start page, an event's page, its public pages
# and their API, the language switch and the static files.
PUBLIC_PATH = re.compile(
    r"^/(?:$|static/|favicon\.ico$|language/[^/]+/$"
    r"|t/[^/]+/(?:$|pairings/$|standings/$|units/$|teams/\d+/$|projector/$|find/$"
    r"|stages/\d+/bracket/$)"
    r"|api/tournaments/[^/]+/public/(?:standings|pairings|find-table|clock)/$)"
)
READ_METHODS = ("GET", "HEAD")
AS_OF_HEADER = "X-Data-As-Of"  # every answer of a mirror: the venue time its data is complete to


def venue() -> str:
    """The venue site's address when this site is a mirror, else ''."""
    return settings.PAISAI_MIRROR_OF


def is_mirror() -> bool:
    return bool(venue())


def venue_link(request) -> str:
    """The same address on the venue site (a GET's query string kept)."""
    path = request.get_full_path() if request.method in READ_METHODS else request.path
    return venue() + path


def refusal(request):
    """The answer to anything but a public read on a mirror."""
    link = venue_link(request)
    message = _(
        "This is a read-only public mirror of the event: results, logins and every change "
        "are made on the venue's site."
    )
    write = request.method not in READ_METHODS
    if request.path.startswith("/api/"):
        body = {"error": message, "field": None, "code": Code.READ_ONLY_MIRROR, "venue": link}
        return JsonResponse(body, status=403, json_dumps_params={"ensure_ascii": False})
    response = render(
        request,
        "errors/mirror.html",
        {"message": message, "venue_link": link, "write": write},
        status=403 if write else 200,
    )
    response["Cache-Control"] = "private, no-store"
    return response


class MirrorMiddleware:
    """On a mirror, everything but the public reads is answered by :func:`refusal`."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not is_mirror():
            return self.get_response(request)
        if not (request.method in READ_METHODS and PUBLIC_PATH.match(request.path_info)):
            return refusal(request)
        response = self.get_response(request)
        as_of = data_as_of()  # the page says when its results changed; this, how complete
        response[AS_OF_HEADER] = as_of.isoformat() if as_of else ""
        return response


# --- freshness -----------------------------------------------------------------------------

AS_OF_SECONDS = 1.0  # a process asks the database at most this often
_as_of: tuple[float, datetime | None] = (0.0, None)
_as_of_lock = threading.Lock()


def data_as_of() -> datetime | None:
    """The venue time up to which this site's data is complete: now on the venue (or any
    site that is not a standby); on a mirror, what its replication says (None: nothing
    replayed since it started)."""
    global _as_of
    if not is_mirror() or connection.vendor != "postgresql":
        return timezone.now()
    now = time.monotonic()
    asked, value = _as_of
    if now - asked < AS_OF_SECONDS:
        return value
    in_recovery, as_of = standby.as_of()
    value = as_of if in_recovery else timezone.now()
    with _as_of_lock:
        _as_of = (now, value)
    return value


def freshness(as_of: datetime | None) -> dict:
    """The JSON fields of a site's freshness: ``data_as_of`` (ISO time) and ``mirror_of``."""
    return {"data_as_of": as_of.isoformat() if as_of else None, "mirror_of": venue() or None}
