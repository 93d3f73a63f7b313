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
    "table-page": pgettext_lazy("entered via", "table page"),
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

# The scoring presets of the engine (rules_engine.presets) by name, as an organiser reads them;
# the numbers beside the name are the preset's own values (preset_name), never written here.
PRESETS = {
    "guandan-suzhou-2016": _("Suzhou 2016 elite rules"),
    "guandan-national-2017": _("National 2017 rules"),
    "guandan-national": _("National rules"),
    "tractor": _("Tractor, three decks"),
    "chengyu": _("Idiom-chain poker"),
}

# The standings' tiebreak metrics (tournaments.standings.metrics, by key): the headers of the
# standings on every page, export and API answer.
METRICS = {
    "points": _("Match points"),
    "level_diff": _("Total level difference"),
    "head_to_head": _("Head-to-head"),
    "head_to_head_two": _("Head-to-head (two tied teams)"),
    "net_levels": _("Net levels"),
    "accumulated_levels": _("Accumulated levels"),
    "level_points": _("Level points"),
    "deals_won_diff": _("Deals won difference"),
    "tricks_diff": _("Tricks difference"),
    "latest_round_score": _("Latest round score"),
    "opponents_points": _("Opponents' points"),
    "draw_lots": _("Drawing lots"),
}


def scoring_words(preset) -> str:
    """A preset's scoring in words, from its values: "20-point scale", "win 3, draw 2,
    loss 1", "win 2, draw 1, loss 0 + level-difference points"."""
    from rules_engine.presets import scoring_terms

    terms = scoring_terms(preset)
    if terms.scale is not None:
        words = gettext("%(points)s-point scale") % {"points": terms.scale}
    else:
        words = gettext("win %(win)s, draw %(draw)s, loss %(loss)s") % {
            "win": terms.win,
            "draw": terms.draw,
            "loss": terms.loss,
        }
    if terms.level_points is not None:
        words = gettext("%(points)s + level-difference points") % {"points": words}
    return words


def preset_name(preset) -> str:
    """A preset (an event's, with its overrides, or a name) as an organiser reads it: its
    name and its scoring from its own values, "National 2017 rules (win 3, draw 2, loss 1)"."""
    from rules_engine.presets import PRESETS as ENGINE_PRESETS

    if isinstance(preset, str):
        if preset not in ENGINE_PRESETS:
            return preset
        preset = ENGINE_PRESETS[preset]
    name = word(PRESETS, preset.name, preset.title)
    return gettext("%(name)s (%(scoring)s)") % {"name": name, "scoring": scoring_words(preset)}


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


# Every export (and background job) by its identifier: the job pages name it in words.
EXPORT_KINDS = {
    "archive": pgettext_lazy("export", "Event archive (JSON)"),
    "bracket-pdf": pgettext_lazy("export", "Bracket (PDF)"),
    "event-file": pgettext_lazy("export", "Event file for checking (JSON)"),
    "certificates-pdf": pgettext_lazy("export", "Certificates (PDF)"),
    "pairings-pdf": pgettext_lazy("export", "Pairings (PDF)"),
    "pairings-xlsx": pgettext_lazy("export", "Pairings (Excel)"),
    "prizes-pdf": pgettext_lazy("export", "Prize list (PDF)"),
    "scoresheets": pgettext_lazy("export", "Scoresheets (PDF)"),
    "standings-pdf": pgettext_lazy("export", "Standings (PDF)"),
    "standings-xlsx": pgettext_lazy("export", "Standings (Excel)"),
    "table-cards-pdf": pgettext_lazy("export", "Table cards (PDF)"),
    "table-links-pdf": pgettext_lazy("export", "Table links QR sheet (PDF)"),
    "team-badges-pdf": pgettext_lazy("export", "Team badges (PDF)"),
    "units-pdf": pgettext_lazy("export", "Unit standings (PDF)"),
    "units-xlsx": pgettext_lazy("export", "Unit standings (Excel)"),
    "team-import": pgettext_lazy("export", "Team import"),
}


def audit_action(code: str) -> str:
    """An audit action in words: the registry's (tournaments.audit_actions)."""
    from tournaments import audit_actions

    return audit_actions.words(code)


def audit_kind(code: str) -> str:
    """A kind of audit action in words (the audit page's filter)."""
    from tournaments import audit_actions

    return word(audit_actions.KINDS, code)


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


# The knockout matches named on pairings, the projector, the table page and the scoresheet
# (issue 25); the bracket page names whole rounds (pairing.messages knockout.*).
KNOCKOUT_MATCHES = {
    "final": pgettext_lazy("knockout", "Final"),
    "third_place": _("Third-place match"),
    "semi_final": pgettext_lazy("knockout match", "Semi-final"),
}


# A team that never checked in and played no match (SPEC §2): listed apart, without a place,
# on every ranking and export (services.stage_standings.absent_teams).
DID_NOT_TAKE_PART = pgettext_lazy("ranking", "Did not take part")


def knockout_match(code: str) -> str:
    """决赛 / 三四名决赛 / 半决赛 for a knockout match's code ("" for none)."""
    return word(KNOCKOUT_MATCHES, code, "") if code else ""


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
