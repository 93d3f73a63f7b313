"""Celery application. Apps define tasks with ``shared_task`` and never import this module."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("paisai")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
