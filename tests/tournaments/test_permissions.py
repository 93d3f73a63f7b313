"""The permission table: every action, a role that may do it and one that may not, in this
event only; the back office may do what is not personal to a role holder."""

from pathlib import Path

import pytest

from tournaments import permissions
from tournaments.errors import Forbidden
from tournaments.models import Role
from tournaments.services.results import ResultForbidden

ROOT = Path(__file__).resolve().parents[2]
ACTIONS = sorted(permissions.ACTIONS)


def allowed_and_refused(action: str) -> tuple[str, str | None]:
    """A role that may do ``action`` and one that may not (None: holding no role here)."""
    roles = permissions.ACTIONS[action].roles
    others = sorted(set(Role.values) - roles)
    return sorted(roles)[0], others[0] if others else None


@pytest.fixture
def event(make_event):
    return make_event(teams=2)


@pytest.fixture
def holder(make_user, grant, event):
    default = event

    def make(role: str | None, event=None):
        event = event or default
        if role is None:
            return make_user()
        team = event.teams.first() if role == Role.CAPTAIN else None
        return grant(make_user(), event, role, team=team)

    return make


def test_every_action_names_roles_and_a_refusal():
    for action in ACTIONS:
        rule = permissions.ACTIONS[action]
        assert rule.roles and rule.roles <= set(Role.values), action
        assert str(rule.refusal), action


@pytest.mark.parametrize("action", ACTIONS)
def test_a_role_of_the_table_may_and_another_may_not(action, event, holder):
    allowed, refused = allowed_and_refused(action)
    assert permissions.may(holder(allowed), event, action)
    permissions.require(holder(allowed), event, action)
    other = holder(refused)
    assert not permissions.may(other, event, action)
    with pytest.raises(Forbidden) as caught:
        permissions.require(other, event, action)
    assert caught.value.status == 403
    assert caught.value.message == str(permissions.ACTIONS[action].refusal)


@pytest.mark.parametrize("action", ACTIONS)
def test_a_role_in_another_event_gives_no_right_here(action, event, holder, make_event):
    allowed, _ = allowed_and_refused(action)
    elsewhere = holder(allowed, make_event(teams=2))
    assert not permissions.may(elsewhere, event, action)


@pytest.mark.parametrize("action", ACTIONS)
def test_anonymous_may_nothing(action, event):
    from django.contrib.auth.models import AnonymousUser

    assert not permissions.may(AnonymousUser(), event, action)
    assert not permissions.may(None, event, action)


@pytest.mark.parametrize("action", ACTIONS)
def test_the_back_office_may_all_but_what_is_personal(action, event, make_user):
    superuser = make_user(is_superuser=True)
    personal = {"appeal.vote", "appeal.file"}
    assert permissions.may(superuser, event, action) is (action not in personal)


def test_require_raises_the_callers_forbidden_class_with_its_message(event, holder):
    with pytest.raises(ResultForbidden, match="not you"):
        permissions.require(
            holder(Role.CAPTAIN), event, "result.correct", ResultForbidden, "not you"
        )


def test_table_rights_narrow_result_entry_to_the_tables_assigned(event, make_user, grant):
    referee = grant(make_user(), event, Role.TABLE_REFEREE, tables=[2])
    chief = grant(make_user(), event, Role.CHIEF_REFEREE)
    assert permissions.can_write_table(referee, event, 2)
    assert not permissions.can_write_table(referee, event, 1)
    assert not permissions.can_write_table(referee, event, None)
    assert permissions.can_write_table(chief, event, 1)


def test_every_action_of_the_table_is_checked_somewhere():
    """Each action is read by a service, a page, the API or a template (audit entries that
    share its name do not count)."""
    files = [
        path
        for package in ("tournaments", "arbitration", "templates")
        for pattern in ("*.py", "*.html")
        for path in (ROOT / package).rglob(pattern)
    ]
    lines = [
        line
        for path in files
        for line in path.read_text().splitlines()
        if "log_action" not in line and '": _action(' not in line
    ]
    unused = [action for action in ACTIONS if not any(f'"{action}"' in line for line in lines)]
    assert not unused


def test_no_role_tuple_outside_the_table():
    import re

    tuple_of_roles = re.compile(r"\(\s*\*?\s*(Role\.[A-Z_]+|\w+_ROLES)\s*,")
    offenders = [
        str(path.relative_to(ROOT))
        for package in ("tournaments", "arbitration")
        for path in (ROOT / package).rglob("*.py")
        if path != ROOT / "tournaments" / "permissions.py"
        and tuple_of_roles.search(path.read_text())
    ]
    assert not offenders
