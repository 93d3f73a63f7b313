"""A Redis cache that is an accelerator, never a single point of failure (issue 13, finding 2).

Every operation that fails (Redis down, refused, timed out, out of memory) is logged and
answered as a miss: ``get`` gives the default, ``set``/``add``/``delete`` do nothing and say so
(False), ``get_many`` gives ``{}``, ``incr`` raises ValueError (as for a missing key). The
caller then computes from the database, which holds everything that matters (the event
revision, the sessions, every result). After a failure the cache is skipped for
``RETRY_SECONDS`` so that an unreachable Redis costs no connection attempt per request; the
first call after that tries again, so the cache comes back by itself.

Nothing stored here can be stale after an outage: every cached answer is keyed on the
event's revision read from the database (``tournaments.freshness.revision``).
"""

from __future__ import annotations

import logging
import threading
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

logger = logging.getLogger("paisai.cache")

RETRY_SECONDS = 5.0
# Short socket timeouts: a Redis that does not answer must not hold a request for seconds.
DEFAULT_OPTIONS = {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}


class ReusedClient(RedisCacheClient):
    """Django makes a new ``redis.Redis`` (and its table of ~160 response callbacks) for
    every cache operation: 0.2-0.45 ms of CPU each, a third of a cached public page's
    (bench/mirror.py). One client a connection pool serves every thread (a redis-py client
    takes a connection from its pool for each command)."""

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        clients = self.__dict__.setdefault("_reused", {})
        client = clients.get(id(pool))
        if client is None:
            client = clients[id(pool)] = self._client(connection_pool=pool)
        return client


class FailSafeRedisCache(RedisCache):
    def __init__(self, server, params):
        params = dict(params)
        params["OPTIONS"] = DEFAULT_OPTIONS | dict(params.get("OPTIONS") or {})
        self.retry_seconds = float(params["OPTIONS"].pop("retry_seconds", RETRY_SECONDS))
        super().__init__(server, params)
        self._class = ReusedClient
        self._down_until = 0.0
        self._lock = threading.Lock()

    # --- the breaker ------------------------------------------------------------------------

    @property
    def available(self) -> bool:
        return time.monotonic() >= self._down_until

    def _failed(self, operation: str, error: Exception) -> None:
        with self._lock:
            first = self.available  # log once per outage window, not once per request
            self._down_until = time.monotonic() + self.retry_seconds
        if first:
            logger.warning(
                "cache %s failed (%s: %s); answering from the database for %.0f s",
                operation,
                type(error).__name__,
                error,
                self.retry_seconds,
            )

    def _call(self, operation: str, fallback, *args, keep=()):
        if not self.available:
            return fallback
        try:
            return getattr(super(), operation)(*args)
        except keep:
            raise
        except Exception as error:  # noqa: BLE001 — any cache failure is a miss, never a 5xx
            self._failed(operation, error)
            return fallback

    # --- the cache API ----------------------------------------------------------------------

    def get(self, key, default=None, version=None):
        return self._call("get", default, key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("set", False, key, value, timeout, version)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("add", False, key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("touch", False, key, timeout, version)

    def delete(self, key, version=None):
        return self._call("delete", False, key, version)

    def get_many(self, keys, version=None):
        return self._call("get_many", {}, keys, version)

    def has_key(self, key, version=None):
        return self._call("has_key", False, key, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("set_many", list(data), data, timeout, version)

    def delete_many(self, keys, version=None):
        return self._call("delete_many", None, keys, version)

    def clear(self):
        return self._call("clear", False)

    def incr(self, key, delta=1, version=None):
        missing = object()
        value = self._call("incr", missing, key, delta, version, keep=(ValueError,))
        if value is missing:
            raise ValueError(f"Key '{key}' not found (cache unavailable)")
        return value
