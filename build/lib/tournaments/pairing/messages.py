"""The pairing's messages in the reader's language: the one translation path.

The pure core (core.py, draw.py, swiss.py, tables.py) returns message keys with
parameters (`Note`, `PairingError.key`, `FLAG_LABELS`); this shell turns them into
text with Django's catalogues and puts team names where the core has ids.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .core import FLAG_FLOATED, FLAG_HOME_TWICE, FLAG_LABELS, FLAG_REMATCH, FLAG_SAME_UNIT

TEXTS = {
    # flags: (badge, explanation)
    "pairing.flag.floated": _("teams from different score groups"),
    "pairing.flag.home_twice": _("home team sits East-West a third time in a row"),
    "pairing.flag.same_unit": _("both teams from the same unit"),
    "pairing.flag.rematch": _("these teams have met before: confirm before publishing"),
    # explanation lines
    "pairing.note.draw_seed": _(
        "Draw seed %(seed)s: teams in id order shuffled by Python random.Random(seed)."
    ),
    "pairing.note.draw_bye": _("%(team)s has the bye: drawn last among teams without a bye."),
    "pairing.note.bye": _("%(team)s has the bye: the lowest-placed team without a bye yet."),
    "pairing.note.bye_skipped": _(
        "%(team)s has the bye: the lowest-placed team without a bye whose absence leaves a "
        "pairable field (%(teams)s could not sit out without forcing a rematch)."
    ),
    "pairing.note.second_bye": _(
        "%(team)s has a second bye: every team has had one. Confirm before publishing."
    ),
    "pairing.note.floated": _(
        "Table %(table)s: %(upper)s (%(upper_score)s points) meets %(lower)s "
        "(%(lower_score)s points), %(difference)s points apart."
    ),
    "pairing.note.same_unit": _(
        "Table %(table)s: %(upper)s and %(lower)s are both from unit %(unit)s; no pairing as "
        "close in score kept them apart."
    ),
    "pairing.note.home_twice": _(
        "Table %(table)s: %(team)s sits home a third time in a row; both teams were home in "
        "their last two rounds."
    ),
    "pairing.note.rematch": _("Table %(table)s: %(upper)s and %(lower)s have met before."),
    "pairing.note.least_bad": _(
        "No pairing without a rematch exists (teams left without a new opponent: %(teams)s). "
        "This is the least-bad pairing: %(rematches)s rematch(es), then the usual costs. It "
        "can be published only after the organiser confirms it with a reason."
    ),
    "pairing.note.lookahead": _(
        "The cheapest pairing would leave a later round without a rematch-free pairing; this "
        "one (choice %(tried)s in cost order) keeps the next %(rounds)s round(s) pairable."
    ),
    "pairing.note.lookahead_direct": _(
        "The cheapest pairings would leave a later round without a rematch-free pairing; this "
        "one keeps the next %(rounds)s round(s) pairable."
    ),
    "pairing.note.lookahead_gave_up": _(
        "The look-ahead could not confirm that the next %(rounds)s round(s) stay pairable "
        "without a rematch; the cheapest pairing is proposed."
    ),
    "pairing.note.schedule_short": _(
        "Only %(rounds)s of the %(wanted)s remaining round(s) can still be paired without a "
        "rematch in this field."
    ),
    # errors
    "pairing.error.too_few": _(
        "%(count)s active team(s): at least two are needed to pair a round."
    ),
    "pairing.error.no_rematch_free": _("No pairing without a rematch exists."),
    "pairing.error.no_bye_left": _("Every active team has already had a bye."),
    "pairing.bad_input": _("The teams given cannot be paired."),
    # round names of a knockout bracket (tournaments.pairing.knockout)
    "knockout.final": pgettext_lazy("knockout", "Final"),
    "knockout.semi_final": _("Semi-finals"),
    "knockout.quarter_final": _("Quarter-finals"),
    "knockout.round_of": _("Round of %(size)s"),
    "knockout.third_place": _("Third-place match"),
}

FLAG_BADGES = {
    FLAG_FLOATED: _("floated"),
    FLAG_HOME_TWICE: _("home twice"),
    FLAG_SAME_UNIT: _("same unit"),
    FLAG_REMATCH: _("rematch"),
}

TEAM_PARAMS = ("team", "home", "away", "upper", "lower")


def flag_badge(flag: str) -> tuple[str, str]:
    """(short badge text, longer explanation) of one table flag."""
    key = FLAG_LABELS.get(flag)
    return str(FLAG_BADGES.get(flag, flag)), str(TEXTS[key]) if key in TEXTS else flag


def number(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def render(
    key: str,
    params: Mapping | None = None,
    team_name: Callable[[int], str] = lambda team_id: f"#{team_id}",
    unit_name: Callable[[str], str] = str,
) -> str:
    """One message in the active language, team ids replaced by names."""
    params = dict(params or {})
    text = TEXTS.get(key)
    if text is None:
        return key
    values = {}
    for name, value in params.items():
        if name in TEAM_PARAMS and value is not None:
            values[name] = team_name(value)
        elif name == "teams":
            values[name] = ", ".join(team_name(team_id) for team_id in value[:20])
        elif name == "unit":
            values[name] = unit_name(value)
        else:
            values[name] = number(value)
    try:
        return str(text) % values
    except (KeyError, TypeError, ValueError):
        return str(text)


def render_explanation(lines, team_name, unit_name=str) -> list[str]:
    """A stored explanation (dicts with key and params; older entries are plain text)."""
    rendered = []
    for line in lines:
        if isinstance(line, Mapping) and "key" in line:
            rendered.append(render(line["key"], line.get("params"), team_name, unit_name))
        else:
            rendered.append(str(line))
    return rendered


def team_ids_in(lines) -> set[int]:
    """Every team id a stored explanation names (to load their names in one query)."""
    ids: set[int] = set()
    for line in lines:
        if not isinstance(line, Mapping):
            continue
        for name, value in (line.get("params") or {}).items():
            if name in TEAM_PARAMS and isinstance(value, int):
                ids.add(value)
            elif name == "teams" and isinstance(value, list):
                ids.update(v for v in value if isinstance(v, int))
    return ids
