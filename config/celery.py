"""Celery application. Apps define tasks with ``shared_task`` and never import this module."""

import os

from celery import Celery
from celery.worker.consumer import Consumer as BaseConsumer
from kombu.transport import TRANSPORT_ALIASES

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# redis:// through the repaired transport (config/broker.py)
TRANSPORT_ALIASES["redis"] = "config.broker:Transport"

app = Celery("paisai")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class Consumer(BaseConsumer):
    """The worker's consumer without gossip, mingle and broker heartbeats, whatever the command
    line says (settings: CELERY_WORKER_CONSUMER). They serve clusters of workers watching
    each other, which paisai does not use (jobs have their own heartbeats and sweep), and
    their restart after a lost broker connection crashed the worker: "Unrecoverable error:
    AttributeError('NoneType' object has no attribute 'hostname')" when Redis restarted
    (issue 31; kombu#582, celery#8091)."""

    def __init__(self, *args, worker_options=None, **kwargs):
        worker_options = {
            **(worker_options or {}),
            "without_gossip": True,
            "without_mingle": True,
            "without_heartbeat": True,
        }
        super().__init__(*args, worker_options=worker_options, **kwargs)
