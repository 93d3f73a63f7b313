"""The audit log: every code declared once with its words (tournaments/audit_actions.py,
arbitration/audit_actions.py); log_action refuses an undeclared code; each entry keeps the
teams and the table it is about, so the audit page's filters by team and table find
incidents, rulings and appeals with the results."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.factories import build_event, enter_result
from tournaments import audit_actions
from tournaments.audit_actions import UnregisteredAuditAction
from tournaments.services.audit import log_action

ROOT = Path(__file__).resolve().parents[3]


def logged_codes():
    """Every code a call of log_action names in the source, with where: string literals,
    both branches of a conditional, and f-strings as their pattern (``result.*``)."""
    found = []
    for package in ("tournaments", "arbitration"):
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                if name not in ("log_action", "change_status") or len(node.args) < 3:
                    continue
                arg = node.args[2] if name == "log_action" else node.args[4]
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                for code in _codes(arg):
                    found.append((code, where))
    return found


def _codes(arg):
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return [arg.value]
    if isinstance(arg, ast.IfExp):
        return _codes(arg.body) + _codes(arg.orelse)
    if isinstance(arg, ast.JoinedStr):
        head = "".join(v.value for v in arg.values if isinstance(v, ast.Constant))
        return [head + "*"]
    return []  # a variable: its values are literals at the callers (change_status is read)


def enumerated(code: str) -> list[str]:
    """An f-string code's values: its last part is a model's choice (the version's kind, the
    leave's kind)."""
    from tournaments.models import ResultVersion, RoundLeave

    if not code.endswith("*"):
        return [code]
    values = {
        "result.": ResultVersion.Kind.values + ["restore"],
        "team.leave.": RoundLeave.Kind.values,
    }
    return [code[:-1] + value for value in values[code[:-1]]]


@pytest.mark.django_db
def test_every_code_the_source_logs_is_declared_with_words_and_a_kind():
    codes = [(one, where) for code, where in logged_codes() for one in enumerated(code)]
    assert len(codes) > 50
    missing = []
    for code, where in codes:
        try:
            found = audit_actions.lookup(code)
        except UnregisteredAuditAction:
            missing.append((code, where))
            continue
        assert found.kind in audit_actions.KINDS
    assert missing == []


@pytest.mark.django_db
def test_log_action_refuses_an_undeclared_code_and_writes_nothing(make_event):
    from tournaments.models import AuditLog

    event = make_event()
    before = AuditLog.objects.count()
    with pytest.raises(UnregisteredAuditAction):
        log_action(event, None, "stage.invented")
    assert AuditLog.objects.count() == before


def test_a_kind_must_be_declared_before_its_actions():
    with pytest.raises(UnregisteredAuditAction):
        audit_actions.action("nokind.thing", "words")


@pytest.mark.django_db
def test_declared_codes_read_in_chinese_on_the_audit_page_words(settings):
    from django.utils import translation

    with translation.override("zh-hans"):
        for code in ("stage.create", "event.settings", "section.split", "team.leave.late_arrival"):
            words = audit_actions.words(code)
            assert words != code and not any("a" <= c <= "z" for c in words.lower()), words


@pytest.mark.django_db
def test_filters_by_team_and_table_find_the_incident_ruling_and_result_about_them(
    make_event, make_user, grant
):
    from arbitration.services.incidents import log_incident
    from tournaments.views.audit import audit_entries

    arb = build_event(make_event, make_user, grant)
    team = arb.match.home
    enter_result(arb)
    log_incident(
        arb.event,
        arb.chief,
        category="slow_play",
        description="slow",
        match=arb.match,
        team=team,
    )
    by_team = {e.action for e in audit_entries(arb.event, team=team.name)}
    assert {"incident.log", "result.submission"} <= by_team
    by_table = {e.action for e in audit_entries(arb.event, table=str(arb.match.table_number))}
    assert {"incident.log", "result.submission"} <= by_table
    assert not list(audit_entries(arb.event, table="²"))  # not a table number: nothing
    other = {e.action for e in audit_entries(arb.event, table=str(arb.match2.table_number))}
    assert "incident.log" not in other
