"""How far a mirror's replication has come: the server's own views, no model."""

from __future__ import annotations

from django.db import connection

# The venue time up to which a hot standby holds everything: while its WAL receiver streams
# and it has replayed what the venue last reported as its end of WAL, the time the venue sent
# its last message (a keep-alive at least every wal_receiver_timeout / 2); otherwise the
# commit time of the last transaction it replayed. NULL columns (a role without
# pg_read_all_stats sees no details of the receiver) fall back to the latter.
STANDBY_AS_OF_SQL = """
SELECT pg_is_in_recovery(),
       CASE WHEN r.status = 'streaming' AND r.latest_end_lsn IS NOT NULL
                 AND pg_last_wal_replay_lsn() >= r.latest_end_lsn
            THEN GREATEST(r.last_msg_send_time, pg_last_xact_replay_timestamp())
            ELSE pg_last_xact_replay_timestamp() END
FROM (SELECT 1) one
LEFT JOIN (SELECT status, latest_end_lsn, last_msg_send_time FROM pg_stat_wal_receiver) r
  ON true
"""


def as_of() -> tuple[bool, object]:
    """(in recovery?, the venue time up to which this standby holds everything)."""
    with connection.cursor() as cursor:
        cursor.execute(STANDBY_AS_OF_SQL)
        return cursor.fetchone()
