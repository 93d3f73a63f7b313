"""Filters of the site's log (settings.LOGGING).

A refusal is no fault: Django logs a 403 raised as ``PermissionDenied`` (and a 400 raised as
``BadRequest``) on ``django.request`` with its traceback, so every refused page wrote a
traceback to the log, and a fault was hard to find among them. :class:`RefusalsInOneLine`
keeps the record (one line: status and path) and drops the traceback of any answer below
500; a 5xx keeps its traceback.
"""

from __future__ import annotations

import logging


class RefusalsInOneLine(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if status is not None and status < 500:
            record.exc_info = None
            record.exc_text = None
            record.stack_info = None
        return True
