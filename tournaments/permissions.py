"""The permission table: every action named once, with the roles that may do it, per event.

A user's rights come from EventRole rows of *that* event only; a referee of event A
has no rights in event B. Superusers may do everything (back office) except what is personal
to a role holder (a committee member's vote, a captain's appeal).

- :data:`ACTIONS` is the only place that says which roles may do what;
- :func:`may` answers it, :func:`require` refuses with a :class:`~tournaments.errors.Forbidden`
  (or the caller's subclass of it) naming the action. Every service calls :func:`require`;
  the pages (``EventMixin.action``) and the API (``api.permissions.ActionPermission``)
  read the same table;
- table-level rights narrow an action to some tables: :func:`can_write_table` (a table
  referee writes the tables assigned to them; table keys are checked by the results service).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from tournaments.errors import Forbidden
from tournaments.models import Event, EventRole, Role, TableAssignment
from tournaments.sql import roles

ORGANISER, CHIEF, TABLE, COMMITTEE, CAPTAIN = (
    Role.ORGANISER,
    Role.CHIEF_REFEREE,
    Role.TABLE_REFEREE,
    Role.COMMITTEE,
    Role.CAPTAIN,
)
OFFICIALS = frozenset({ORGANISER, CHIEF, TABLE, COMMITTEE})
# The role a person is named by in public (no username shown), when they hold several.
PUBLIC_ROLE_ORDER = (CHIEF, TABLE, ORGANISER, COMMITTEE, CAPTAIN)


@dataclass(frozen=True)
class Action:
    roles: frozenset[str]
    refusal: object  # a lazy message: why it is refused
    superuser: bool = True  # False: personal to the role holder (no back-office override)


def _action(roles, refusal, superuser: bool = True) -> Action:
    return Action(frozenset(roles), refusal, superuser)


ONLY_ORGANISER = _("Only the organiser of this event may do this.")
ONLY_CHIEF = _("Only the chief referee may do this.")

ACTIONS: dict[str, Action] = {
    # the event and its registration
    "event.manage": _action({ORGANISER}, ONLY_ORGANISER),
    "team.register": _action({ORGANISER}, ONLY_ORGANISER),
    "team.import": _action({ORGANISER}, ONLY_ORGANISER),
    "event.finish": _action({ORGANISER}, _("Only an organiser of this event may finish it.")),
    "event.reopen": _action({CHIEF}, _("Only the chief referee may reopen a finished event.")),
    "event.status": _action(
        {ORGANISER, CHIEF}, _("Only the organiser or the chief referee see the event's status.")
    ),
    "audit.view": _action(
        {ORGANISER, CHIEF}, _("Only the organiser or the chief referee read the audit log.")
    ),
    "event.settings": _action(
        {ORGANISER}, _("Only the organiser may change the event's settings.")
    ),
    "standings.view": _action(
        {ORGANISER, CHIEF}, _("Only the organiser or the chief referee see these standings.")
    ),
    "standings.draw_lots": _action(
        {ORGANISER, CHIEF}, _("Only the chief referee or the organiser may draw lots.")
    ),
    "team.check_in": _action({ORGANISER}, _("You may not %(what)s in this event.")),
    "team.leave": _action({ORGANISER, CHIEF}, _("You may not %(what)s in this event.")),
    "role.grant": _action({ORGANISER}, _("Only the organiser may give or remove roles.")),
    # stages and sections (drawing a stage's round is "round.draft")
    "stage.view": _action(OFFICIALS, _("You hold no official role in this event.")),
    "stage.manage": _action({ORGANISER}, _("Only the organiser may set up stages and sections.")),
    # rounds
    "round.draft": _action({ORGANISER}, _("Only the organiser may draft or change a pairing.")),
    "round.publish": _action({ORGANISER}, _("Only the organiser may publish a round.")),
    "round.start": _action({ORGANISER}, _("Only the organiser may start a round's clock.")),
    "round.finalise": _action(
        {ORGANISER, CHIEF}, _("Only the organiser or the chief referee may finalise a round.")
    ),
    "round.reopen": _action({CHIEF}, _("Only the chief referee may reopen a finalised round.")),
    # results (a table referee: only at the tables assigned, see can_write_table)
    "result.enter": _action({CHIEF, TABLE}, _("You may not enter results here.")),
    "result.enter_any": _action({CHIEF}, ONLY_CHIEF),
    "result.confirm": _action({CHIEF, TABLE, CAPTAIN}, _("You may not confirm results here.")),
    "result.correct": _action({CHIEF}, ONLY_CHIEF),
    "result.board": _action(
        {ORGANISER, CHIEF}, _("Only the organiser or the chief referee see the operations board.")
    ),
    "forfeit.confirm": _action({CHIEF}, _("You may not %(what)s in this event.")),
    # calls to the chief referee from a table (a table referee: only at the tables assigned;
    # a table's device through its key, checked by the calls service)
    "call.raise": _action(
        {CHIEF, TABLE}, _("Only the table's referee may call the chief referee.")
    ),
    "call.answer": _action({CHIEF}, _("Only the chief referee answers calls from the tables.")),
    "table_key.manage": _action(
        {ORGANISER, CHIEF}, _("Only the organiser or the chief referee manage table keys.")
    ),
    "export.run": _action(
        {ORGANISER, CHIEF}, _("Only the organiser or the chief referee may export this.")
    ),
    # arbitration
    "arbitration.view": _action(OFFICIALS | {CAPTAIN}, _("You hold no role in this event.")),
    "incident.view": _action(OFFICIALS, _("You hold no official role in this event.")),
    "incident.log": _action({CHIEF, TABLE}, _("You may not log incidents at this table.")),
    "incident.rule": _action({CHIEF}, ONLY_CHIEF),
    "ruling.revoke": _action({CHIEF}, ONLY_CHIEF),
    "desk.use": _action({CHIEF, TABLE}, _("Only referees use the rules desk.")),
    "dashboard.chief": _action(
        {CHIEF, ORGANISER}, _("Only the chief referee and the organiser see this dashboard.")
    ),
    "dashboard.committee": _action(
        {COMMITTEE, CHIEF}, _("Only the arbitration committee and the chief referee see this page.")
    ),
    "appeal.file": _action(
        {CAPTAIN}, _("Only the captain of a team involved may appeal against this ruling."), False
    ),
    "appeal.accept_late": _action({CHIEF}, ONLY_CHIEF),
    # every role's home (services/homes.py)
    "home.chief": _action(
        {CHIEF, ORGANISER}, _("Only the chief referee and the organiser use the chief's desk.")
    ),
    "home.referee": _action({TABLE, CHIEF}, _("Only the event's referees have tables here.")),
    "home.captain": _action({CAPTAIN}, _("Only a team captain of this event has a match here.")),
    # people
    "identity.view": _action(OFFICIALS, _("Only the event's officials see who entered what.")),
    "login.unlock": _action(
        {ORGANISER, CHIEF}, _("Only the organiser or the chief referee may lift a lock.")
    ),
    "appeal.vote": _action(
        {COMMITTEE}, _("Only members of the arbitration committee may vote."), False
    ),
}


def user_roles(user, event: Event) -> frozenset[str]:
    """The roles ``user`` holds in ``event`` (kept on the user object per event: SQL built once,
    tournaments.sql.roles, on every request of an official)."""
    if user is None or not user.is_authenticated:
        return frozenset()
    return roles.held(user, event.pk)


def may(user, event: Event, action: str) -> bool:
    """May ``user`` do ``action`` (a key of :data:`ACTIONS`) in ``event``?"""
    rule = ACTIONS[action]
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser and rule.superuser:
        return True
    return bool(user_roles(user, event) & rule.roles)


def allowed_actions(user, event: Event) -> frozenset[str]:
    """Every action ``user`` may do in ``event`` (pages show only what may be done)."""
    return frozenset(action for action in ACTIONS if may(user, event, action))


def require(
    user,
    event: Event,
    action: str,
    error: type[Forbidden] = Forbidden,
    message=None,
    **params,
) -> None:
    """Refuse (``error``, a 403) unless ``user`` may do ``action`` in ``event``; the
    refusal is the table's, or ``message`` (a template) with ``params``."""
    if not may(user, event, action):
        raise error(message or ACTIONS[action].refusal, **params)


def can_manage(user, event: Event) -> bool:
    return may(user, event, "event.manage")


def can_create_event(user) -> bool:
    """Site administrators, users given the event-creator right, or every signed-up user
    when the site says so (settings.PAISAI_OPEN_EVENT_CREATION)."""
    from django.conf import settings

    return bool(
        user is not None
        and user.is_authenticated
        and (
            user.is_superuser
            or settings.PAISAI_OPEN_EVENT_CREATION
            or user.has_perm("tournaments.add_event")
        )
    )


def captain_team_ids(user, event: Event) -> set[int]:
    if user is None or not user.is_authenticated:
        return set()
    return set(
        EventRole.objects.filter(user=user, event=event, role=Role.CAPTAIN).values_list(
            "team_id", flat=True
        )
    )


def sees_team_matters(user, event: Event, team_ids) -> bool:
    """May ``user`` read an arbitration record that concerns ``team_ids`` (a team's record, a
    ruling on the teams of its match, an appeal)? The event's officials (``incident.view``)
    read every team's; a captain only their own team's, on the pages and the API alike
    (issue 39: the API let any captain read every team's)."""
    if may(user, event, "incident.view"):
        return True
    return bool(captain_team_ids(user, event) & {pk for pk in team_ids if pk is not None})


TEAM_MATTERS_REFUSAL = _("A captain sees only their own team's incidents, rulings and appeals.")


def can_write_table(user, event: Event, table_number: int | None) -> bool:
    """Chief referees write every table; a table referee only the tables assigned to them."""
    if may(user, event, "result.enter_any"):
        return True
    if table_number is None or not may(user, event, "result.enter"):
        return False
    return TableAssignment.objects.filter(
        event=event, user=user, table_number=table_number
    ).exists()
