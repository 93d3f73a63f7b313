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

# A deal's record on paper (the scoresheets' grid heads); pages say "Deal n" (deal_label). The
# level the dealers play is one word for both games that have one (never the word for a draw).
DEAL = pgettext_lazy("deal record", "Deal")
LEVEL_PLAYED = pgettext_lazy("deal record", "Level played")

# Roles in an event (Role codes); the model's labels gloss the Chinese term for the admin.
ROLES = {
    "organiser": pgettext_lazy("role", "Organiser"),
    "chief_referee": pgettext_lazy("role", "Chief referee"),
    "table_referee": pgettext_lazy("role", "Table referee"),
    "committee": pgettext_lazy("role", "Committee member"),
    "captain": pgettext_lazy("role", "Team captain"),
}

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

# The scoring presets of the engine (rules_engine.presets) by name, as an organiser reads them.
PRESETS = {
    "guandan-suzhou-2016": _("Suzhou 2016 elite rules (20-point scale)"),
    "guandan-national-2017": _("National 2017 rules (win 3, draw 2, loss 1)"),
    "guandan-national": _("National rules (match points 2/1/0 + level-difference points)"),
    "tractor": _("Tractor, three decks (win 2, draw 1, loss 0)"),
    "chengyu": _("Idiom-chain poker (win 2, draw 1, loss 0)"),
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


# The audit log's actions and kinds of action in words; the code stays in the record.
AUDIT_ACTIONS = {
    "api_token.issue": pgettext_lazy("audit", "API token issued"),
    "api_token.revoke": pgettext_lazy("audit", "API token revoked"),
    "appeal.accept_late": pgettext_lazy("audit", "Late appeal accepted"),
    "appeal.decide": pgettext_lazy("audit", "Appeal decided"),
    "appeal.file": pgettext_lazy("audit", "Appeal filed"),
    "appeal.vote": pgettext_lazy("audit", "Committee vote"),
    "call.answer": pgettext_lazy("audit", "Call from a table answered"),
    "call.raise": pgettext_lazy("audit", "Chief referee called to a table"),
    "creator.grant": pgettext_lazy("audit", "Event-creator right changed"),
    "incident.evidence": pgettext_lazy("audit", "Evidence attached"),
    "incident.log": pgettext_lazy("audit", "Incident logged"),
    "login.unlock": pgettext_lazy("audit", "Login unlocked"),
    "ranking.adjust": pgettext_lazy("audit", "Ranking adjusted"),
    "ranking.cancel": pgettext_lazy("audit", "Ranking adjustment cancelled"),
    "result.confirm": pgettext_lazy("audit", "Result confirmed"),
    "result.conflict": pgettext_lazy("audit", "Entry refused: changed meanwhile"),
    "result.dispute": pgettext_lazy("audit", "Result disputed"),
    "result.dispute_decided": pgettext_lazy("audit", "Dispute decided"),
    "result.refused": pgettext_lazy("audit", "Entry refused"),
    "result.submission": pgettext_lazy("audit", "Result entered"),
    "result.correction": pgettext_lazy("audit", "Result corrected"),
    "result.void": pgettext_lazy("audit", "Match voided"),
    "result.restore": pgettext_lazy("audit", "Earlier version restored"),
    "result.ruling": pgettext_lazy("audit", "Result changed by a ruling"),
    "role.grant": pgettext_lazy("audit", "Role given"),
    "role.revoke": pgettext_lazy("audit", "Role removed"),
    "round.draft": pgettext_lazy("audit", "Round drawn"),
    "round.publish": pgettext_lazy("audit", "Round published"),
    "round.start": pgettext_lazy("audit", "Round started"),
    "round.complete": pgettext_lazy("audit", "Round complete"),
    "round.finalise": pgettext_lazy("audit", "Round finalised"),
    "round.reopen": pgettext_lazy("audit", "Round reopened"),
    "round.swap": pgettext_lazy("audit", "Tables swapped"),
    "ruling.make": pgettext_lazy("audit", "Ruling made"),
    "ruling.automatic": pgettext_lazy("audit", "Penalty escalated"),
    "ruling.revoke": pgettext_lazy("audit", "Ruling revoked"),
    "table_key.issue": pgettext_lazy("audit", "Table link made"),
    "table_key.revoke": pgettext_lazy("audit", "Table link revoked"),
    "tables.assign": pgettext_lazy("audit", "Tables assigned"),
    "tables.unassign": pgettext_lazy("audit", "Tables unassigned"),
    "team.create": pgettext_lazy("audit", "Team registered"),
    "team.update": pgettext_lazy("audit", "Team changed"),
    "team.check_in": pgettext_lazy("audit", "Team checked in"),
    "team.check_out": pgettext_lazy("audit", "Check-in undone"),
    "team.import": pgettext_lazy("audit", "Teams imported"),
    "team.seated": pgettext_lazy("audit", "Table seated"),
    "team.status": pgettext_lazy("audit", "Team status changed"),
    "tournament.create": pgettext_lazy("audit", "Event created"),
    "tournament.update": pgettext_lazy("audit", "Event changed"),
    "tournament.awards": pgettext_lazy("audit", "Awards set"),
    "tournament.finish": pgettext_lazy("audit", "Event finished"),
    "tournament.reopen": pgettext_lazy("audit", "Event reopened"),
    "tournament.status": pgettext_lazy("audit", "Event status changed"),
    "user.deactivate": pgettext_lazy("audit", "Login deactivated"),
}
AUDIT_KINDS = {
    "api_token": pgettext_lazy("audit kind", "API tokens"),
    "appeal": pgettext_lazy("audit kind", "Appeals"),
    "call": pgettext_lazy("audit kind", "Calls from tables"),
    "creator": pgettext_lazy("audit kind", "Event creators"),
    "incident": pgettext_lazy("audit kind", "Incidents"),
    "login": pgettext_lazy("audit kind", "Logins"),
    "ranking": pgettext_lazy("audit kind", "Rankings"),
    "result": pgettext_lazy("audit kind", "Results"),
    "role": pgettext_lazy("audit kind", "Roles"),
    "round": pgettext_lazy("audit kind", "Rounds"),
    "ruling": pgettext_lazy("audit kind", "Rulings"),
    "table_key": pgettext_lazy("audit kind", "Table links"),
    "tables": pgettext_lazy("audit kind", "Table assignments"),
    "team": pgettext_lazy("audit kind", "Teams"),
    "tournament": pgettext_lazy("audit kind", "Event"),
    "user": pgettext_lazy("audit kind", "Users"),
}


def audit_action(code: str) -> str:
    """An audit action in words (``team.leave.absent`` reads as its kind's word)."""
    if code in AUDIT_ACTIONS:
        return str(AUDIT_ACTIONS[code])
    head = ".".join(code.split(".")[:2])
    return str(AUDIT_ACTIONS.get(head) or AUDIT_KINDS.get(code.split(".")[0], code))


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


def game_label(number) -> str:
    """第 n 局 / Game n, counted from 1: a game of a best-of-three match (三局二胜)."""
    return gettext("Game %(n)s") % {"n": number}


def names_by_username(usernames) -> dict[str, str]:
    """username → display name, for pages that hold usernames (the board's referees)."""
    from django.contrib.auth import get_user_model

    rows = get_user_model().objects.filter(username__in=set(usernames))
    return {user.get_username(): person(user) for user in rows}


def person(user, username: str = "") -> str:
    """A person by name: the user's display name (``first_name``; the admin edits it), else
    the username. ``username`` is the text kept in a record when the account is gone."""
    if user is None:
        return username
    name = (user.get_full_name() or "").strip()
    return name or user.get_username()
