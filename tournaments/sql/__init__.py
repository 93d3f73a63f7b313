"""The hand-built SQL of the hot paths, in one package (issue 29).

The ORM's compile of a query cost more CPU than the database's answer on the paths every
request takes; these modules build their SQL once per process, from the models' own
``_meta`` where they can (a field added to a model is read without touching them):

- :mod:`.rows` — one row of any model as an instance, and the insert of one (sessions,
  users, result versions, audit entries);
- :mod:`.lookups` — the event of every page and API request with its revision, and the match
  of the results path with its round, event and the user's roles;
- :mod:`.roles` — the roles a user holds in an event;
- :mod:`.pending` — whether a round still has a match without a counting result;
- :mod:`.revision` — an event's revision (read, and the bump);
- :mod:`.standby` — how far a mirror's replication has come (the server's own views).

:data:`READS` names the models each module's SQL reads; tests/tournaments/test_sql.py has a
test per model, comparing the SQL's answer with the ORM's, and fails when a model read here
has none.
"""

from __future__ import annotations

# module -> the models (app_label.Model) its hand-built SQL reads; rows reads any model it is
# given (tested with those the hot paths give it).
READS = {
    "rows": ("sessions.Session", "auth.User", "tournaments.ResultVersion", "tournaments.AuditLog"),
    "lookups": (
        "tournaments.Match",
        "tournaments.Round",
        "tournaments.Event",
        "tournaments.EventRole",
        "tournaments.EventRevision",
    ),
    "roles": ("tournaments.EventRole",),
    "pending": ("tournaments.Match", "tournaments.ResultVersion"),
    "revision": ("tournaments.EventRevision",),
    "standby": (),
}
