"""An event's award list (``Event.awards``): one award a line, a name and the places it
covers (“冠军 1”, “一等奖 2-4”); without one, the champion, runner-up and third place. Read by
the prize list and certificates (exporters/prizes.py), the lots at a prize band's line
(services/lots.py) and the award list's own editing (services/prizes.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.errors import ExportError

LINE = re.compile(r"^(?P<name>.+?)\s+(?P<first>\d{1,4})(?:\s*[-–~～至]\s*(?P<last>\d{1,4}))?$")


@dataclass(frozen=True)
class Award:
    name: str
    first: int
    last: int


def default_awards() -> list[Award]:
    return [
        Award(gettext("Champion"), 1, 1),
        Award(gettext("Runner-up"), 2, 2),
        Award(gettext("Third place"), 3, 3),
    ]


def parse_awards(text: str) -> list[Award]:
    """The awards of an event's award list; ExportError names the line at fault."""
    awards = []
    for number, raw in enumerate((text or "").splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        match = LINE.match(line)
        if not match:
            raise ExportError(
                _("Award line %(n)s “%(line)s”: write a name and the places, e.g. 一等奖 1-3."),
                "awards",
                n=number,
                line=line,
            )
        first, last = int(match["first"]), int(match["last"] or match["first"])
        if not 1 <= first <= last:
            raise ExportError(
                _("Award line %(n)s: the places must run from the smaller to the larger."),
                "awards",
                n=number,
            )
        awards.append(Award(match["name"].strip(), first, last))
    return awards
