"""The exporter interface: one class per format, each with ``render()`` (after pretix's exporters).

An exporter is built with the event and its own parameters, checks them at once
(:class:`ExportError` names the bad one) and renders an :class:`ExportFile`. A progress
callback ``progress(done, total)`` lets a background task report how far it is.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from tournaments.errors import Code, ExportError
from tournaments.services.jobs import ExportFile

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PDF = "application/pdf"
JSON = "application/json"

Progress = Callable[[int, int], None]
ROUND_MAX = 32767  # the round number's column (PositiveSmallIntegerField)


def _no_progress(done: int, total: int) -> None:
    return None


class Exporter:
    """Base class: subclasses set ``identifier``, ``extension``, ``content_type`` and
    implement :meth:`render_bytes`."""

    identifier: str = ""
    extension: str = ""
    content_type: str = ""
    public: bool = False  # may anyone download it (published standings), or officials only?
    # rendered by a background job (exporters/exports.py), never inside a web request; an
    # exporter that answers at once (nothing to render) may say False
    job: bool = True

    def __init__(self, event, progress: Progress | None = None, **params):
        self.event = event
        self.progress = progress or _no_progress
        accepted = inspect.signature(self.clean).parameters
        unknown = sorted(set(params) - set(accepted))
        if unknown and not any(p.kind is p.VAR_KEYWORD for p in accepted.values()):
            raise ExportError(
                _("Unknown export parameter “%(name)s”."), unknown[0], name=unknown[0]
            )
        self.params = self.clean(**params)

    def clean(self, **params) -> dict:
        """Check the parameters; raise ExportError naming a bad one."""
        if params:
            name = sorted(params)[0]
            raise ExportError(_("Unknown export parameter “%(name)s”."), name, name=name)
        return {}

    def check(self) -> None:
        """Refuse (ExportError) at once, before a job is made, what would fail anyway."""

    def is_public(self) -> bool:
        """May anyone download this export (no login)?"""
        return self.public

    def name_parts(self) -> list[str]:
        return [self.identifier]

    def filename(self) -> str:
        stem = "-".join([slugify(self.event.slug) or "event", *self.name_parts()])
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
            _("The round must be a number, not “%(value)s”."), field, value=value
        ) from None
    if not 1 <= number <= ROUND_MAX:
        raise ExportError(
            _("The round must be from 1 to %(max)s, not %(value)s."),
            field,
            max=ROUND_MAX,
            value=number,
        )
    return number


class NoSuchRound(ExportError):
    """The export names a round the event does not have (a 404: nothing to make)."""

    code = Code.NOT_FOUND


def event_round(event, value, field: str = "round"):
    """The event's round of that number (a parameter from a URL or JSON), or
    :class:`NoSuchRound`: an export is made only for a round that exists (issue 39: a public
    URL naming any of 32,767 round numbers queued a job each)."""
    from tournaments.models import Round

    number = round_number(value, field)
    found = Round.objects.filter(event=event, number=number).first()
    if found is None:
        raise NoSuchRound(_("There is no round %(number)s."), field, number=number)
    return found


class ChunkedExporter(Exporter):
    """An exporter of many like items (a page or a card each), rendered in chunks of
    :attr:`chunk_size` items that the background job spreads over the worker processes and
    then assembles (what every page shares is drawn once, at assembly). Items are in a
    stable order, so chunk ``i`` is the same items whichever process renders it.

    Subclasses implement :meth:`item_count`, :meth:`render_chunk` and :meth:`assemble`."""

    chunk_size: int = 100
    chunk_unit: int = 1  # a chunk is a multiple of this many items (whole pages)

    def item_count(self) -> int:
        raise NotImplementedError

    def check_items(self, count: int) -> None:
        """Refuse (ExportError) an export with nothing to print; called before the job."""

    def check(self) -> None:
        self.check_items(self.item_count())

    def render_chunk(self, start: int, stop: int) -> bytes:
        raise NotImplementedError

    def assemble(self, parts: list[bytes]) -> bytes:
        raise NotImplementedError

    def chunk_count(self, total: int | None = None, size: int | None = None) -> int:
        total = self.item_count() if total is None else total
        return -(-total // (size or self.chunk_size))

    def render_bytes(self) -> bytes:
        """Every chunk in this process, one after the other, then assembled."""
        total = self.item_count()
        self.check_items(total)
        parts, size = [], self.chunk_size
        for start in range(0, total, size):
            parts.append(self.render_chunk(start, min(total, start + size)))
            self.progress(min(total, start + size), total)
        return self.assemble(parts)
