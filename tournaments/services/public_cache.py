"""Public answers rendered once per event revision and served from the cache, with HTTP
validators so that a browser or a reverse proxy revalidates with a 304 (SPEC section 6).

An answer's identity is its ETag: the event, its revision (``Event.revision``, bumped in
the same transaction as every public change), what was asked (page kind, query parameters),
the language and the answer format. So

- a request whose ``If-None-Match`` names the current ETag (or whose ``If-Modified-Since`` is
  not older than the revision) gets a 304 at the cost of loading the event row: no cache
  read, no rendering;
- otherwise the rendered bytes are read from the cache under the ETag, or rendered and
  stored there. While one request renders a page, concurrent requests for the same page —
  at that revision or a newer one — get the latest answer already rendered, for a second
  (no thundering herd when 10,000 phones open the pairings at once, and one render at a time
  while results change the revision 50 times a second); with the cache down every request
  renders. A public mirror also pauses a second between two renders of a page
  (PAISAI_PUBLIC_RENDER_PAUSE), and each of its processes serves the answer it last served
  for that long without asking the cache: its visitors see answers at most that much older,
  and its CPU serves them rather than rendering every revision replication brings.

Nothing here can be stale after a cache outage: the key holds the revision the database has
now. Cached pages are the same for everybody (no user, no CSRF token, no messages), so they
may be stored by a shared proxy: ``Cache-Control: public, max-age=…,
stale-while-revalidate=…`` and ``Vary: Accept-Language, Cookie`` (the language cookie).
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse, HttpResponseNotModified
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language

from tournaments.models import Event

FORMAT = "3"  # bump when the shape of a cached answer changes (a deploy)
TTL_SECONDS = 3600  # a revision's answers are dropped from the cache after this
REBUILD_LOCK_SECONDS = 10  # the longest a page may take to render before others render too
MAX_AGE = 10
STALE_WHILE_REVALIDATE = 30
CACHE_CONTROL = f"public, max-age={MAX_AGE}, stale-while-revalidate={STALE_WHILE_REVALIDATE}"
VARY = ("Accept-Language", "Cookie")


@dataclass(frozen=True)
class Answer:
    body: bytes
    content_type: str
    etag: str
    last_modified: float
    disposition: str = ""  # a download's Content-Disposition


# With a render pause (a mirror), each process keeps the answers it served for that long and
# serves them again without asking the cache: the most requested pages cost no Redis trip.
HELD_ANSWERS = 256
# With a render pause, one page's renders take at most this share of the time: a page that
# took 0.5 s to render (find-my-table's index of 10,000 players) waits 3 s for the next.
RENDER_SHARE = 0.2
_held: OrderedDict[str, tuple[float, Answer]] = OrderedDict()
_held_lock = threading.Lock()


def identity(event: Event, kind: str, params: dict) -> str:
    """The answer's name without its revision: (event, kind, parameters, language, format)."""
    stamp = int(event.created_at.timestamp() * 1000) if event.created_at else 0
    asked = json.dumps([kind, sorted(params.items()), get_language(), FORMAT], default=str)
    digest = hashlib.sha1(asked.encode()).hexdigest()[:16]
    return f"{event.pk}-{stamp}-{digest}"


def etag(event: Event, kind: str, params: dict) -> str:
    return f'"{identity(event, kind, params)}-r{event.revision}"'


def last_modified(event: Event) -> float:
    moment = event.revised_at or event.created_at
    return moment.timestamp() if moment else 0.0


def serve(request, event: Event, kind: str, params: dict, render: Callable) -> object:
    """The answer for ``kind``/``params`` at the event's current revision.

    ``render()`` returns an HttpResponse (a TemplateResponse is rendered here); only a 200
    is cached. ``event`` must have been loaded in this request (its revision is the
    database's).
    """
    tag = etag(event, kind, params)
    modified = int(last_modified(event))
    not_modified = get_conditional_response(request, etag=tag, last_modified=modified)
    if not_modified is not None:
        return _with_headers(not_modified, tag, modified)
    pause = int(settings.PAISAI_PUBLIC_RENDER_PAUSE)
    name = identity(event, kind, params)
    if pause > 0:
        held = _held.get(name)
        if held is not None and held[0] > time.monotonic():
            response = _response(held[1])  # this process's answer of less than `pause` ago
            response["Cache-Control"] = f"public, max-age={pause}"
            response.cached_answer = held[1]
            return response
    response = _serve(event, tag, name, modified, render)
    if pause > 0 and getattr(response, "cached_answer", None) is not None:
        _hold(name, response.cached_answer, pause)
    return response


def held_for(request) -> HttpResponse | None:
    """On a mirror (a render pause): the answer this process served for the same address and
    language less than the pause ago, before the event is even looked up (its visitors see
    answers at most the pause older, and a held answer costs no database or cache trip);
    None otherwise. A revalidation naming the held answer's ETag gets a 304."""
    pause = int(settings.PAISAI_PUBLIC_RENDER_PAUSE)
    if pause <= 0 or request.method not in ("GET", "HEAD"):
        return None
    held = _held.get(_address(request))
    if held is None or held[0] <= time.monotonic():
        return None
    answer = held[1]
    if request.headers.get("If-None-Match") == answer.etag:
        response = _with_headers(HttpResponseNotModified(), answer.etag, answer.last_modified)
    else:
        response = _response(answer)
    response["Cache-Control"] = f"public, max-age={pause}"
    return response


def hold_for(request, response) -> None:
    """Keep ``response`` (a cached public answer) for :func:`held_for` on a mirror."""
    pause = int(settings.PAISAI_PUBLIC_RENDER_PAUSE)
    answer = getattr(response, "cached_answer", None)
    if pause > 0 and answer is not None and request.method in ("GET", "HEAD"):
        _hold(_address(request), answer, pause)


def served_held(request, respond: Callable[[], HttpResponse]) -> HttpResponse:
    """A public view's whole answer on a mirror: the held answer for this address when there
    is one (:func:`held_for`), else ``respond()``, kept for the next request (:func:`hold_for`).
    The public pages and the public API dispatch through it."""
    held = held_for(request)
    if held is not None:
        return held
    response = respond()
    hold_for(request, response)
    return response


def forget_held() -> None:
    """Drop this process's held answers (a test's clean start)."""
    with _held_lock:
        _held.clear()


def _address(request) -> str:
    return f"address:{get_language()}:{request.get_full_path()}"


def _hold(name: str, answer: Answer, pause: int) -> None:
    with _held_lock:
        _held[name] = (time.monotonic() + pause, answer)
        _held.move_to_end(name)
        while len(_held) > HELD_ANSWERS:
            _held.popitem(last=False)


def _serve(event, tag: str, name: str, modified: int, render: Callable):
    key = f"paisai:public:{tag}"
    answer = cache.get(key)
    if answer is None:
        latest_key = f"paisai:public-latest:{name}"
        # one render of a page at a time, whichever revision it is for: while results come
        # in at 50 a second every request would otherwise find a new revision to render
        lock_key = f"paisai:public-render:{name}"
        locked = cache.add(lock_key, 1, REBUILD_LOCK_SECONDS)
        if not locked:
            previous = cache.get(latest_key)  # another request renders this page now
            if previous is not None:
                response = _response(previous)
                response["Cache-Control"] = "public, max-age=1"
                response.cached_answer = previous
                return response
        began = time.monotonic()
        try:
            response = render()
            if hasattr(response, "render"):
                response = response.render()
        finally:
            if locked:  # the next render of this page: at once, or after the pause
                pause = int(settings.PAISAI_PUBLIC_RENDER_PAUSE)
                if pause > 0:  # … and a page slow to render waits longer (RENDER_SHARE)
                    took = time.monotonic() - began
                    cache.set(lock_key, 1, max(pause, math.ceil(took / RENDER_SHARE)))
                else:
                    cache.delete(lock_key)
        if response.status_code != 200:
            cache.delete(f"{key}:lock")
            return response
        answer = Answer(
            bytes(response.content),
            response["Content-Type"],
            tag,
            modified,
            response.get("Content-Disposition", ""),
        )
        cache.set(key, answer, TTL_SECONDS)
        cache.set(latest_key, answer, TTL_SECONDS)
        response = _with_headers(response, tag, modified)
        response.cached_answer = answer
        return response
    response = _response(answer)
    response.cached_answer = answer
    return response


def serve_json(request, event: Event, kind: str, params: dict, build: Callable):
    """Like :func:`serve` for a JSON answer: ``build()`` returns the data."""

    def render() -> HttpResponse:
        body = json.dumps(build(), cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":"))
        return HttpResponse(body.encode(), content_type="application/json")

    return serve(request, event, kind, params, render)


def _response(answer: Answer) -> HttpResponse:
    response = HttpResponse(answer.body, content_type=answer.content_type)
    if answer.disposition:
        response["Content-Disposition"] = answer.disposition
    return _with_headers(response, answer.etag, answer.last_modified)


def _with_headers(response, tag: str, modified: float):
    response["ETag"] = tag
    response["Last-Modified"] = http_date(modified)
    response["Cache-Control"] = CACHE_CONTROL
    patch_vary_headers(response, VARY)
    return response
