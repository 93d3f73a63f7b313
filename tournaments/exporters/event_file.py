"""The paisai event file (``.paisai.json``): the event as an open document that
``python -m paisai_check`` re-checks (its contents: tournaments/services/event_file.py)."""

from __future__ import annotations

import json

from django.utils.translation import gettext_lazy as _

from tournaments.services import event_file

from .archive import dumps as archive_dumps
from .archive import export_archive
from .base import JSON, Exporter, ExportError

YES = ("1", "yes", "true")
NO = ("", "0", "no", "false")


def dumps(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True)


def event_file_data(event, with_archive: bool = False) -> dict:
    """The event file (tournaments/services/event_file.py builds it); ``with_archive``: with
    the event archive as ``archive`` (the archive import then reads the file)."""
    data = event_file.build(event)
    if with_archive:
        data["archive"] = json.loads(archive_dumps(export_archive(event)))
    return data


class EventFileJson(Exporter):
    identifier = "event-file"
    extension = "paisai.json"
    content_type = JSON

    def clean(self, archive=None) -> dict:
        """``archive``: also carry the event archive (the archive import then reads the file)."""
        value = "" if archive is None else str(archive).strip().lower()
        if value not in YES + NO:
            raise ExportError(_("“%(value)s” is not yes or no."), "archive", value=archive)
        return {"archive": value in YES}

    def is_public(self) -> bool:
        """Anyone's once the event is finished, when its organiser publishes it (never with
        the archive: it holds the accounts)."""
        event = self.event
        return (
            not self.params["archive"]
            and event.status == event.Status.FINISHED
            and event.event_file_public
        )

    def name_parts(self) -> list[str]:
        return []

    def render_bytes(self) -> bytes:
        self.progress(0, 1)
        built = event_file_data(self.event, with_archive=self.params["archive"])
        data = dumps(built).encode("utf-8")
        self.progress(1, 1)
        return data
