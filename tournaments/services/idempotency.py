"""Idempotent submissions: a repeat of a submission answers the version first stored.

A phone makes a UUID for each submission (the ``Idempotency-Key`` header) and keeps it with
the queued deals until a stored version holds them. The server stores the key on the version
it creates (scoped to the match; the unique (match, key) constraint keeps it once per match,
for as long as the version exists, i.e. at least for the event). A repeat with the same key:

- and the same body (same action, record, base version, note, options): the version first
  stored, unchanged, never a new version and never "changed meanwhile";
- and another body: ``results.IdempotencyMismatch`` (422) naming the key.

``fingerprint`` hashes the request as its author sent it (canonical JSON), not as stored.
"""

from __future__ import annotations

import hashlib
import json
import uuid

from django.utils.translation import gettext_lazy as _

from tournaments.errors import ServiceError
from tournaments.models import ResultVersion

HEADER = "Idempotency-Key"


def parse_key(value: object) -> uuid.UUID | None:
    """The header's UUID (None when absent); refused (naming the header) when it is not one
    (an empty header included: it was sent, and is none)."""
    if value is None:
        return None
    try:
        return uuid.UUID(str(value)[:64])
    except ValueError:
        raise ServiceError(
            _("Idempotency-Key must be a UUID made for this submission."), HEADER
        ) from None


def fingerprint(action: str, body: dict) -> str:
    text = json.dumps(
        {"action": action, **body},
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
        default=str,
    )
    return hashlib.sha256(text.encode()).hexdigest()


def stored(match, key: uuid.UUID | None) -> ResultVersion | None:
    """The version stored earlier under ``key`` on ``match``, or None."""
    if key is None:
        return None
    return (
        ResultVersion.objects.filter(match=match, idempotency_key=key)
        .select_related("created_by", "confirmed_by")
        .first()
    )
