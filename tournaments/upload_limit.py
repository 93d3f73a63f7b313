"""The upload limit's one home: ``settings.PAISAI_MAX_UPLOAD_BYTES`` and nothing else.

The middleware refuses a body over it from the declared length (before the body is read);
the import form and the import API refuse a file over it with the same words. No other
module holds a number for it (tests/test_one_home.py).
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _

# The form's other fields and the multipart part headers, allowed above the file's own size.
BODY_OVERHEAD = 64 * 1024


def max_upload_bytes() -> int:
    """The largest file accepted, in bytes."""
    return int(settings.PAISAI_MAX_UPLOAD_BYTES)


def max_upload_body() -> int:
    """The largest multipart body accepted: the file and the form around it."""
    return max_upload_bytes() + BODY_OVERHEAD


def megabytes(size: int) -> str:
    """``10485760`` → ``"10"``, ``5767168`` → ``"5.5"``."""
    return f"{round(size / (1024 * 1024), 1):g}"


def too_large_message() -> str:
    return _("The file is larger than %(limit)s MB; nothing was uploaded.") % {
        "limit": megabytes(max_upload_bytes())
    }


def refusal(upload) -> str | None:
    """The words refusing ``upload`` (anything with ``.size``) for its size, or None."""
    if upload.size > max_upload_bytes():
        return too_large_message()
    return None
