"""The exporter interface: one class per format, each with ``render()`` (after pretix's exporters).

An exporter is built with the tournament and its own parameters, checks them at once
(:class:`ExportError` names the bad one) and renders an :class:`ExportFile`. A progress
callback ``progress(done, total)`` lets a background task report how far it is.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.text import slugify
from django.utils.translation import gettext as _

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PDF = "application/pdf"
JSON = "application/json"

Progress = Callable[[int, int], None]
ROUND_MAX = 32767  # the round number's column (PositiveSmallIntegerField)


class ExportError(Exception):
    """Bad export parameters; ``field`` names the one at fault."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass(frozen=True)
class ExportFile:
    filename: str
    content_type: str
    data: bytes


def _no_progress(done: int, total: int) -> None:
    return None


class Exporter:
    """Base class: subclasses set ``identifier``, ``extension``, ``content_type`` and
    implement :meth:`render_bytes`."""

    identifier: str = ""
    extension: str = ""
    content_type: str = ""
    public: bool = False  # may anyone download it (published standings), or officials only?

    def __init__(self, tournament, progress: Progress | None = None, **params):
        self.tournament = tournament
        self.progress = progress or _no_progress
        accepted = inspect.signature(self.clean).parameters
        unknown = sorted(set(params) - set(accepted))
        if unknown and not any(p.kind is p.VAR_KEYWORD for p in accepted.values()):
            raise ExportError(
                _("Unknown export parameter “%(name)s”.") % {"name": unknown[0]}, unknown[0]
            )
        self.params = self.clean(**params)

    def clean(self, **params) -> dict:
        """Check the parameters; raise ExportError naming a bad one."""
        if params:
            name = sorted(params)[0]
            raise ExportError(_("Unknown export parameter “%(name)s”.") % {"name": name}, name)
        return {}

    def is_public(self) -> bool:
        """May anyone download this export (no login)?"""
        return self.public

    def name_parts(self) -> list[str]:
        return [self.identifier]

    def filename(self) -> str:
        stem = "-".join([slugify(self.tournament.slug) or "event", *self.name_parts()])
        return f"{stem}.{self.extension}"

    def render_bytes(self) -> bytes:
        raise NotImplementedError

    def render(self) -> ExportFile:
        return ExportFile(self.filename(), self.content_type, self.render_bytes())


def round_number(value, field: str = "round") -> int:
    """A round number from a parameter (a string from a URL or JSON), or ExportError."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ExportError(
            _("The round must be a number, not “%(value)s”.") % {"value": value}, field
        ) from None
    if not 1 <= number <= ROUND_MAX:
        raise ExportError(
            _("The round must be from 1 to %(max)s, not %(value)s.")
            % {"max": ROUND_MAX, "value": number},
            field,
        )
    return number
