"""The Redis broker transport, with one repair (issue 31: workers that outlive the broker).

After Redis restarts, kombu can still ack a message on a channel whose connection it has
closed; the channel then reads its connection's address from ``None`` and raises
AttributeError ('NoneType' object has no attribute 'hostname'), which the worker takes for
an unrecoverable error and exits (seen after a job finished across a Redis restart; kombu#582,
celery#8091). Here such a channel raises Redis's ConnectionError instead: an ack is then
logged as failed (the message comes back after the visibility timeout, and a job's task
finds its job done), and the consumer reconnects, as for any lost connection.

Registered for ``redis://`` URLs by config/celery.py.
"""

from __future__ import annotations

import redis
from kombu.transport import redis as kombu_redis


class Channel(kombu_redis.Channel):
    def _connparams(self, asynchronous=False):
        if self.connection.client is None:  # the connection this channel belonged to is gone
            raise redis.exceptions.ConnectionError("the broker connection was closed")
        return super()._connparams(asynchronous=asynchronous)


class Transport(kombu_redis.Transport):
    Channel = Channel
