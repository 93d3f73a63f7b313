"""The session engine: Django's database sessions, read with SQL built once per process.

Sessions stay in the database (settings, "Sessions live in the database"); only the read of
every logged-in request changes: Django compiles ``Session.objects.get(...)`` anew each
time, which cost about a seventh of a result submission's CPU (bench/results_load.py,
BENCH_PYSPY). Writing, expiry, cycling and clearing are Django's own.
"""

from __future__ import annotations

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends import db
from django.utils import timezone

from tournaments.sql import rows

WHERE = 'x."session_key" = %s AND x."expire_date" > %s'

# Sessions stored while the user lookup was Django's own class still log in (see config.auth).
BACKENDS = {"django.contrib.auth.backends.ModelBackend": "config.auth.ModelBackend"}


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        if self.session_key is None:
            return None
        session = rows.select_one(self.model, WHERE, [self.session_key, timezone.now()])
        if session is None:
            self._session_key = None
        return session

    def load(self):
        data = super().load()
        backend = data.get(BACKEND_SESSION_KEY)
        if backend in BACKENDS:
            data[BACKEND_SESSION_KEY] = BACKENDS[backend]
        return data
