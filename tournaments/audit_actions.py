"""The audit log's actions, each declared once with its words and its kind (learnt from
Tabbycat's ``ActionLogEntry.ActionType`` and pretix's ``LogEntryType`` registry).

:func:`tournaments.services.audit.log_action` accepts only a code declared here (or by an app
that registers its own: arbitration's are in ``arbitration/audit_actions.py``), so an entry
never reaches the log, the audit page or an export as a bare code. A code is
``<kind>.<what>``; a family of codes with a variable last part (``team.leave.<kind>``,
``result.<version kind>``) is declared as a pattern ending in ``.*``.

Each kind also says how an entry finds the teams and the table it is about, from its target
(:func:`subjects`): the audit page's filters by team and by table read those columns, so an
incident, a ruling or an appeal about a team or a table is found with the results.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import pgettext_lazy


class UnregisteredAuditAction(LookupError):
    """A programming error: an audit code that is not declared (the build's tests catch it)."""


@dataclass(frozen=True)
class AuditAction:
    code: str
    words: object  # lazy text
    kind: str


KINDS: dict[str, object] = {}
ACTIONS: dict[str, AuditAction] = {}
# model label → fn(target) -> (team ids, table number): what an entry about that target is about
SUBJECTS: dict[str, Callable[[object], tuple[list[int], int | None]]] = {}


def kind(code: str, words) -> None:
    KINDS[code] = words


def action(code: str, words) -> None:
    head = code.split(".")[0]
    if head not in KINDS:
        raise UnregisteredAuditAction(f"audit kind {head!r} of {code!r} is not declared")
    ACTIONS[code] = AuditAction(code, words, head)


def subjects_of(label: str):
    """Declare how an entry about a ``label`` model finds its teams and table."""

    def register(fn):
        SUBJECTS[label] = fn
        return fn

    return register


def lookup(code: str) -> AuditAction:
    """The declared action of ``code`` (a pattern ``a.b.*`` covers ``a.b.x``)."""
    found = ACTIONS.get(code)
    if found is None:
        head = code.rsplit(".", 1)[0]
        found = ACTIONS.get(head + ".*")
    if found is None:
        raise UnregisteredAuditAction(
            f"audit action {code!r} is not declared in tournaments/audit_actions.py "
            "(or its app's audit_actions module)"
        )
    return found


def words(code: str) -> str:
    """An action in words (the code itself only for an entry written before it was declared)."""
    try:
        return str(lookup(code).words)
    except UnregisteredAuditAction:
        head = code.split(".")[0]
        return str(KINDS.get(head, code))


def subjects(target) -> tuple[list[int], int | None]:
    """(team ids, table number) an entry about ``target`` concerns."""
    if target is None:
        return [], None
    fn = SUBJECTS.get(target._meta.label_lower)
    return fn(target) if fn else ([], None)


# --- the kinds and actions of the tournaments app -------------------------------------------
for _code, _words in {
    "api_token": pgettext_lazy("audit kind", "API tokens"),
    "call": pgettext_lazy("audit kind", "Calls from tables"),
    "creator": pgettext_lazy("audit kind", "Event creators"),
    "event": pgettext_lazy("audit kind", "Event settings"),
    "login": pgettext_lazy("audit kind", "Logins"),
    "ranking": pgettext_lazy("audit kind", "Rankings"),
    "result": pgettext_lazy("audit kind", "Results"),
    "role": pgettext_lazy("audit kind", "Roles"),
    "round": pgettext_lazy("audit kind", "Rounds"),
    "section": pgettext_lazy("audit kind", "Sections"),
    "stage": pgettext_lazy("audit kind", "Stages"),
    "standings": pgettext_lazy("audit kind", "Standings"),
    "table_key": pgettext_lazy("audit kind", "Table links"),
    "tables": pgettext_lazy("audit kind", "Table assignments"),
    "team": pgettext_lazy("audit kind", "Teams"),
    # the event's own actions: codes stored in every audit entry since the first, so they
    # kept their old word when the code named the event Event (issue 29); "event" is taken
    "tournament": pgettext_lazy("audit kind", "Event"),
    "user": pgettext_lazy("audit kind", "Users"),
    "account": pgettext_lazy("audit kind", "Accounts"),
}.items():
    kind(_code, _words)

for _code, _words in {
    "api_token.issue": pgettext_lazy("audit", "API token issued"),
    "api_token.revoke": pgettext_lazy("audit", "API token revoked"),
    "call.answer": pgettext_lazy("audit", "Call from a table answered"),
    "call.raise": pgettext_lazy("audit", "Chief referee called to a table"),
    "creator.grant": pgettext_lazy("audit", "Event-creator right changed"),
    "creator.revoke": pgettext_lazy("audit", "Event-creator right withdrawn"),
    "event.settings": pgettext_lazy("audit", "Event settings changed"),
    "login.unlock": pgettext_lazy("audit", "Login unlocked"),
    "ranking.adjust": pgettext_lazy("audit", "Ranking adjusted"),
    "ranking.cancel": pgettext_lazy("audit", "Ranking adjustment cancelled"),
    "result.confirm": pgettext_lazy("audit", "Result confirmed"),
    "result.conflict": pgettext_lazy("audit", "Entry refused: changed meanwhile"),
    "result.dispute": pgettext_lazy("audit", "Result disputed"),
    "result.dispute_decided": pgettext_lazy("audit", "Dispute decided"),
    "result.merge": pgettext_lazy("audit", "Entry merged onto a newer version"),
    "result.refused": pgettext_lazy("audit", "Entry refused"),
    "result.submission": pgettext_lazy("audit", "Result entered"),
    "result.correction": pgettext_lazy("audit", "Result corrected"),
    "result.void": pgettext_lazy("audit", "Match voided"),
    "result.restore": pgettext_lazy("audit", "Earlier version restored"),
    "result.ruling": pgettext_lazy("audit", "Result changed by a ruling"),
    "role.grant": pgettext_lazy("audit", "Role given"),
    "role.revoke": pgettext_lazy("audit", "Role removed"),
    "role.offer": pgettext_lazy("audit", "Role offered"),
    "role.accept": pgettext_lazy("audit", "Role accepted"),
    "role.decline": pgettext_lazy("audit", "Role declined"),
    "round.draft": pgettext_lazy("audit", "Round drawn"),
    "round.redraft": pgettext_lazy("audit", "Round drawn again"),
    "round.confirm_rematches": pgettext_lazy("audit", "Rematches confirmed"),
    "round.publish": pgettext_lazy("audit", "Round published"),
    "round.start": pgettext_lazy("audit", "Round started"),
    "round.complete": pgettext_lazy("audit", "Round complete"),
    "round.finalise": pgettext_lazy("audit", "Round finalised"),
    "round.reopen": pgettext_lazy("audit", "Round reopened"),
    "round.swap": pgettext_lazy("audit", "Tables swapped"),
    "section.assign": pgettext_lazy("audit", "Team placed in a section"),
    "section.create": pgettext_lazy("audit", "Section created"),
    "section.delete": pgettext_lazy("audit", "Section deleted"),
    "section.remove": pgettext_lazy("audit", "Team taken out of a section"),
    "section.split": pgettext_lazy("audit", "Teams split into sections"),
    "stage.create": pgettext_lazy("audit", "Stage created"),
    "stage.delete": pgettext_lazy("audit", "Stage deleted"),
    "stage.update": pgettext_lazy("audit", "Stage changed"),
    "stage.late_entry": pgettext_lazy("audit", "Late team joined the stage"),
    "standings.draw_lots": pgettext_lazy("audit", "Lots drawn"),
    "table_key.issue": pgettext_lazy("audit", "Table link made"),
    "table_key.revoke": pgettext_lazy("audit", "Table link revoked"),
    "tables.assign": pgettext_lazy("audit", "Tables assigned"),
    "tables.unassign": pgettext_lazy("audit", "Tables unassigned"),
    "team.create": pgettext_lazy("audit", "Team registered"),
    "team.update": pgettext_lazy("audit", "Team changed"),
    "team.check_in": pgettext_lazy("audit", "Team checked in"),
    "team.check_out": pgettext_lazy("audit", "Check-in undone"),
    "team.import": pgettext_lazy("audit", "Teams imported"),
    "team.reimport": pgettext_lazy("audit", "Teams imported again"),
    "team.leave.*": pgettext_lazy("audit", "Leave recorded"),
    "team.seated": pgettext_lazy("audit", "Table seated"),
    "team.status": pgettext_lazy("audit", "Team status changed"),
    "tournament.create": pgettext_lazy("audit", "Event created"),
    "tournament.update": pgettext_lazy("audit", "Event changed"),
    "tournament.awards": pgettext_lazy("audit", "Awards set"),
    "tournament.finish": pgettext_lazy("audit", "Event finished"),
    "tournament.reopen": pgettext_lazy("audit", "Event reopened"),
    "tournament.status": pgettext_lazy("audit", "Event status changed"),
    "user.deactivate": pgettext_lazy("audit", "Login deactivated"),
    "team.unseated": pgettext_lazy("audit", "Seat mark undone"),
    "team.late_forfeit": pgettext_lazy("audit", "Late team forfeited"),
    "account.invite": pgettext_lazy("audit", "Official invited"),
    "account.captain": pgettext_lazy("audit", "Captain login made"),
    "account.link": pgettext_lazy("audit", "One-time login link made"),
    "account.link_used": pgettext_lazy("audit", "One-time login link used"),
}.items():
    action(_code, _words)


@subjects_of("tournaments.match")
def _match(match):
    return [pk for pk in (match.home_id, match.away_id) if pk], match.table_number


@subjects_of("tournaments.team")
def _team(team):
    return [team.pk], None


@subjects_of("tournaments.tablekey")
def _table_key(key):
    return [], key.table_number
