"""Arbitration's audit actions (incidents, rulings, appeals), declared in the one registry
(tournaments/audit_actions.py) with their words, and how an entry about an incident, a ruling
or an appeal finds its team and table (so the audit page's filters find them). Loaded by
ArbitrationConfig.ready()."""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

from tournaments.audit_actions import action, kind, subjects_of

kind("appeal", pgettext_lazy("audit kind", "Appeals"))
kind("incident", pgettext_lazy("audit kind", "Incidents"))
kind("ruling", pgettext_lazy("audit kind", "Rulings"))

action("appeal.accept_late", pgettext_lazy("audit", "Late appeal accepted"))
action("appeal.decide", pgettext_lazy("audit", "Appeal decided"))
action("appeal.file", pgettext_lazy("audit", "Appeal filed"))
action("appeal.vote", pgettext_lazy("audit", "Committee vote"))
action("incident.evidence", pgettext_lazy("audit", "Evidence attached"))
action("incident.log", pgettext_lazy("audit", "Incident logged"))
action("ruling.make", pgettext_lazy("audit", "Ruling made"))
action("ruling.automatic", pgettext_lazy("audit", "Penalty escalated"))
action("ruling.revoke", pgettext_lazy("audit", "Ruling revoked"))


def _match_subjects(match, team_id):
    if match is None:
        return ([team_id] if team_id else []), None
    teams = [team_id] if team_id else [pk for pk in (match.home_id, match.away_id) if pk]
    return teams, match.table_number


@subjects_of("arbitration.incident")
def _incident(incident):
    return _match_subjects(incident.match if incident.match_id else None, incident.team_id)


@subjects_of("arbitration.ruling")
def _ruling(ruling):
    return _match_subjects(ruling.match if ruling.match_id else None, ruling.team_id)


@subjects_of("arbitration.appeal")
def _appeal(appeal):
    return _ruling(appeal.ruling)
