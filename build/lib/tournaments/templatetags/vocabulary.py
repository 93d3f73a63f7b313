"""Template filters of the vocabulary (tournaments.glossary): ``{% load vocabulary %}``.

``{{ s.seat|seat }}`` 东, ``{{ "EW"|side }}`` 东西, ``{{ finish|seats }}`` 东 西 南 北,
``{{ n|table_label }}`` 第 n 桌, ``{{ n|deal_label }}`` 第 n 副, ``{{ v.kind|version_kind }}``,
``{{ v.via|via }}``, ``{{ state|appeal_state }}``, ``{{ choice|decision }}``,
``{{ user|person }}`` (the display name; ``{{ user|person:text_kept }}`` when the account may
be gone)."""

from django import template

from tournaments import glossary

register = template.Library()

register.filter("seat", glossary.seat)
register.filter("side", glossary.side)
register.filter("seats", glossary.seats)
register.filter("table_label", glossary.table_label)
register.filter("deal_label", glossary.deal_label)


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
def preset(name):
    return glossary.word(glossary.PRESETS, name)


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
    return glossary.word(glossary.AUDIT_KINDS, code)
