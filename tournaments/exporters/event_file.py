"""The paisai event file (``.paisai.json``): the event as an open document that
``python -m paisai_check`` re-checks (its contents: tournaments/services/event_file.py)."""

from __future__ import annotations

import json

from .base import JSON, Exporter


def dumps(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True)


class EventFileJson(Exporter):
    identifier = "event-file"
    extension = "paisai.json"
    content_type = JSON

    def name_parts(self) -> list[str]:
        return []

    def render_bytes(self) -> bytes:
        from tournaments.services import event_file

        self.progress(0, 1)
        data = dumps(event_file.build(self.event)).encode("utf-8")
        self.progress(1, 1)
        return data
