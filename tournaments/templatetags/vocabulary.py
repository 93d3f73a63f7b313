"""Template filters of the vocabulary (tournaments.glossary): ``{% load vocabulary %}``.

``{{ s.seat|seat }}`` 东, ``{{ "EW"|side }}`` 东西, ``{{ finish|seats }}`` 东 西 南 北,
``{{ n|table_label }}`` 第 n 桌, ``{{ n|deal_label }}`` 第 n 副, ``{{ v.kind|version_kind }}``,
``{{ v.via|via }}``, ``{{ state|appeal_state }}``, ``{{ choice|decision }}``,
``{{ user|person }}`` (the display name; ``{{ user|person:text_kept }}`` when the account may
be gone), ``{{ row.points|points }}`` match points and standings figures exactly, without
trailing zeros (0.5, 2, -1: never 0.50 or 2.0; rules_engine.points)."""

from django import template

from rules_engine.errors import RulesError
from rules_engine.points import points_text
from rules_engine.seating import HOME, by_side, other_side
from tournaments import glossary

register = template.Library()

register.filter("seat", glossary.seat)
register.filter("side", glossary.side)
register.filter("seats", glossary.seats)
register.filter("table_label", glossary.table_label)
register.filter("deal_label", glossary.deal_label)
register.filter("points", points_text)


@register.filter
def version_kind(code):
    return glossary.word(glossary.VERSION_KINDS, code)


@register.filter
def via(code):
    return glossary.word(glossary.VIA, code, default="") if code else ""


@register.filter
def appeal_state(code):
    return glossary.word(glossary.APPEAL_STATES, code)


@register.filter
def decision(code):
    return glossary.word(glossary.DECISIONS, code)


@register.filter
def result_word(code):
    return glossary.word(glossary.RESULTS, code)


@register.filter
def role_name(code):
    return glossary.word(glossary.ROLES, code)


@register.filter
def preset(value):
    """An event's preset (``{{ event|preset }}``: its numbers with the event's
    overrides) or a preset's name, in words with its scoring (glossary.preset_name)."""
    if hasattr(value, "get_preset"):
        try:
            value = value.get_preset()
        except RulesError:  # settings the engine refuses: the preset as it comes
            value = value.preset
    return glossary.preset_name(value)


@register.filter
def named(username, names):
    """A username shown by its display name: ``{{ username|named:names }}`` (names from
    ``glossary.names_by_username``); a list of usernames gives the names joined."""
    if isinstance(username, list | tuple):
        return ", ".join(names.get(u, u) for u in username)
    return names.get(username, username)


@register.filter
def person(user, username=""):
    return glossary.person(user, username or "")


@register.filter
def audit_action(code):
    return glossary.audit_action(code)


@register.filter
def audit_kind(code):
    return glossary.audit_kind(code)


@register.filter
def export_kind(code):
    """An export or job by its identifier, in words (``standings-pdf`` → 排名（PDF）)."""
    return glossary.word(glossary.EXPORT_KINDS, code)


@register.filter
def audit_data(data):
    """An audit entry's kept data as JSON (its keys as stored, Chinese readable), never a
    Python repr."""
    import json

    return json.dumps(data, ensure_ascii=False, sort_keys=True, default=str)


@register.filter
def result_details(outcome, side=HOME):
    """What stands beside a result's match points (issue 25), ``side``'s first (default: the
    home team's, as a pairing lists it): games of a
    best of three (局分 2 : 1), the levels (级数 A : 10) and 级差分 where the preset
    keeps it: ``[(label, "a : b"), ...]``."""
    from django.utils.translation import gettext

    if outcome is None or not getattr(outcome, "counts", False):
        return []
    other = other_side(side)

    def pair(read):
        return f"{_plain(read(side))} : {_plain(read(other))}"

    found = []
    if outcome.has_games:
        found.append((gettext("games won"), pair(outcome.games)))
    if outcome.has_levels:
        found.append((gettext("Levels"), pair(outcome.level)))
    if outcome.has_level_points:
        found.append((gettext("Level points"), pair(outcome.level_points)))
    return found


@register.filter
def side_team(side, match):
    """The team of ``match`` that plays ``side`` (the engine's seating): ``{{ f|side_team:m }}``."""
    return by_side(match.home, match.away).get(side)


def _plain(value):
    return int(value) if isinstance(value, float) and value.is_integer() else value
