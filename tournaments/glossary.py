"""The one vocabulary of pages and exports (issue 18): the words for seats, sides, tables,
deals, results, version kinds, appeal states, decisions and people.

Pages, PDFs and spreadsheets say a thing with the word given here (the ``vocabulary`` template
filters read it); the API keeps its codes (E/S/W/N, EW/NS, ``submission``…). The engine's own
messages follow the same words through ``rules_engine.locale_zh`` and ``rules_engine.words``.
"""

from __future__ import annotations

from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

SEATS = {"E": _("East"), "S": _("South"), "W": _("West"), "N": _("North")}
SIDES = {"EW": _("East–West"), "NS": _("North–South"), "both": _("both sides")}

# How a version of a result came to be (ResultVersion.kind) and where it was entered (via).
VERSION_KINDS = {
    "submission": pgettext_lazy("result version", "Entry"),
    "correction": pgettext_lazy("result version", "Correction"),
    "void": pgettext_lazy("result version", "Void"),
    "restore": pgettext_lazy("result version", "Restore"),
    "ruling": pgettext_lazy("result version", "Ruling"),
}
VIA = {
    "web": pgettext_lazy("entered via", "web page"),
    "api": pgettext_lazy("entered via", "app"),
    "table-key": pgettext_lazy("entered via", "table link"),
}

# A team's result in a match.
RESULTS = {
    "win": pgettext_lazy("match result", "Won"),
    "draw": pgettext_lazy("match result", "Drawn"),
    "loss": pgettext_lazy("match result", "Lost"),
    "bye": pgettext_lazy("match result", "Bye"),
    "forfeit": pgettext_lazy("match result", "Forfeit"),  # 弃权: the team did not play
    "penalty_loss": pgettext_lazy("match result", "Loss by ruling"),  # 判负: a penalty
}

# An appeal (Appeal.status and the deadline's state) and the committee's decision.
APPEAL_STATES = {
    "open": pgettext_lazy("appeal", "Open"),
    "ok": pgettext_lazy("appeal", "Open"),
    "decided": pgettext_lazy("appeal", "Decided"),
    "refused": pgettext_lazy("appeal", "Refused (late)"),
}
DECISIONS = {
    "uphold": pgettext_lazy("appeal decision", "Upheld"),
    "overturn": pgettext_lazy("appeal decision", "Overturned"),
    "amend": pgettext_lazy("appeal decision", "Amended"),
}


def word(table: dict, code, default: str | None = None) -> str:
    """``table[code]`` in the active language; the code itself (or ``default``) if unknown."""
    if code in table:
        return str(table[code])
    return str(code) if default is None else default


def seat(code) -> str:
    return word(SEATS, code)


def side(code) -> str:
    return word(SIDES, code)


def seats(codes) -> str:
    """A finish order or a list of seats: ``["E", "W"]`` → "东 西"."""
    return " ".join(seat(c) for c in codes)


def table_label(number) -> str:
    """第 n 桌 / Table n: the one name of a table."""
    return gettext("Table %(n)s") % {"n": number}


def deal_label(number) -> str:
    """第 n 副 / Deal n, counted from 1."""
    return gettext("Deal %(n)s") % {"n": number}


def person(user, username: str = "") -> str:
    """A person by name: the user's display name (``first_name``; the admin edits it), else
    the username. ``username`` is the text kept in a record when the account is gone."""
    if user is None:
        return username
    name = (user.get_full_name() or "").strip()
    return name or user.get_username()
