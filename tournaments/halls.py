"""An event's halls (``Event.halls``): one hall a line, its name and the range of its
tables, e.g. "A厅 1-60" or "Hall B 61–120" (between the numbers "-", "–", "—", "~", "～" or
"至", spaces optional). A line without a range is a plain hall name (it has no screen).

The text is parsed here and nowhere else (:func:`parse`; ``Event.hall_list``), and
refused here (:func:`refusals` for the settings form, :func:`check` for the service): a range
that runs backwards, a table 0 or above :data:`~tournaments.validation.MAX_TABLE` (the one
limit of table numbers), two halls sharing tables. Pure: no database, no request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from tournaments.errors import ServiceError
from tournaments.validation import MAX_TABLE

# The lazy name leaves the longest number to the range: "Hall 2 1-60" is Hall 2, tables 1-60.
RANGE = re.compile(r"^(?P<name>.*?)\s*(?P<first>\d+)\s*[-–—~～至]\s*(?P<last>\d+)$")


@dataclass(frozen=True)
class Hall:
    """A hall, and its tables ``first``–``last`` (both None: a plain name, no range)."""

    name: str
    first: int | None = None
    last: int | None = None

    @property
    def has_range(self) -> bool:
        """Written with a range of tables (perhaps a refused one, see :func:`faults`)."""
        return self.first is not None and self.last is not None

    @property
    def usable(self) -> bool:
        """Its range can be shown (a projector screen, a zone of the board): 1 ≤ first ≤
        last ≤ MAX_TABLE, as the settings let through (older text may hold other ranges)."""
        return self.has_range and 1 <= self.first <= self.last <= MAX_TABLE

    def __contains__(self, table: object) -> bool:
        """Whether table number ``table`` is one of the hall's (a bye's None is in none)."""
        if not self.has_range or not isinstance(table, int):
            return False
        return self.first <= table <= self.last


def parse(text: str | None) -> list[Hall]:
    """The halls of the text, in its order; blank lines skipped, spaces around names dropped.
    Never refuses (see :func:`refusals`): a range is read as written, even backwards."""
    halls = []
    for raw in (text or "").splitlines():
        line = raw.strip()
        if not line:
            continue
        found = RANGE.match(line)
        if found is None:
            halls.append(Hall(line))
            continue
        name = found["name"].strip() or line  # "1-60" alone: the hall is named by its range
        halls.append(Hall(name, int(found["first"]), int(found["last"])))
    return halls


def overlaps(halls: list[Hall]) -> list[tuple[Hall, Hall, int, int]]:
    """Every two halls whose (well-formed) ranges share tables, with the shared first–last."""
    ranged = [h for h in halls if h.has_range and h.first <= h.last]
    found = []
    for i, one in enumerate(ranged):
        for other in ranged[i + 1 :]:
            first, last = max(one.first, other.first), min(one.last, other.last)
            if first <= last:
                found.append((one, other, first, last))
    return found


def faults(halls: list[Hall]) -> list[tuple[object, dict]]:
    """Why the halls cannot be saved: (translatable message, its parameters), one a fault."""
    found: list[tuple[object, dict]] = []
    for hall in halls:
        if not hall.has_range:
            continue
        named = {"hall": hall.name, "first": hall.first, "last": hall.last, "max": MAX_TABLE}
        if hall.first < 1 or hall.last < 1:
            found.append((_("%(hall)s: there is no table 0; tables are numbered from 1."), named))
        elif hall.first > hall.last:
            found.append(
                (
                    _(
                        "%(hall)s: table %(first)s is above table %(last)s; write the "
                        "hall's first table first."
                    ),
                    named,
                )
            )
        elif hall.last > MAX_TABLE:
            found.append((_("%(hall)s: table numbers go up to %(max)s."), named))
    for one, other, first, last in overlaps(halls):
        params = {"one": one.name, "other": other.name, "first": first, "last": last}
        if first == last:
            found.append((_("%(one)s and %(other)s both hold table %(first)s."), params))
        else:
            found.append((_("%(one)s and %(other)s both hold tables %(first)s–%(last)s."), params))
    return found


def refusals(halls: list[Hall]) -> list[str]:
    """The faults of the halls as messages in the active language (the settings form's)."""
    return [str(message) % params for message, params in faults(halls)]


class HallsError(ServiceError):
    """The event's halls refused (a range backwards, a table 0, two halls sharing tables)."""


def check(text: str | None) -> list[Hall]:
    """The halls of ``text``, or HallsError (field ``halls``) with the first refusal."""
    halls = parse(text)
    refused = faults(halls)
    if refused:
        message, params = refused[0]
        raise HallsError(message, "halls", **params)
    return halls
