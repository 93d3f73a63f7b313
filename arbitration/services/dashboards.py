"""What the chief referee's and the committee's dashboards and a team's record show."""

from __future__ import annotations

from collections import Counter

from django.db.models import Exists, OuterRef, Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from arbitration.models import Appeal, Incident, Revocation, Ruling, Vote
from arbitration.models.rulings import Step, step_label
from rules_engine import ladder
from tournaments import permissions
from tournaments.models import Event, Match, ResultVersion, Team
from tournaments.services.disputes import open_calls
from tournaments.services.results import current_round

from .appeals import answer_deadline, answer_state, refusal
from .common import settings_of
from .lateness import pending_forfeits
from .rulings import proposal, team_steps


def seen_team_ids(user, event: Event) -> set[int] | None:
    """The teams whose arbitration records ``user`` reads: None for every team (the event's
    officials), else the teams the user captains (the one rule: permissions.sees_team_matters)."""
    if permissions.may(user, event, "incident.view"):
        return None
    return permissions.captain_team_ids(user, event)


def rulings_seen(event: Event, user):
    """The event's rulings ``user`` reads: every one for officials; for a captain those on
    their team or on a match of their team."""
    rows = Ruling.objects.filter(event=event).select_related("decided_by", "result_version")
    teams = seen_team_ids(user, event)
    if teams is None:
        return rows
    return rows.filter(Q(team__in=teams) | Q(match__home__in=teams) | Q(match__away__in=teams))


def appeals_seen(event: Event, user):
    """The event's appeals ``user`` reads: every one for officials; a captain's team's own."""
    rows = appeals_qs(event)
    teams = seen_team_ids(user, event)
    return rows if teams is None else rows.filter(team__in=teams)


def rulings_qs(event: Event):
    revoked = Revocation.objects.filter(ruling=OuterRef("pk"))
    return (
        Ruling.objects.filter(event=event)
        .select_related("team", "match__round", "decided_by", "incident")
        .annotate(revoked=Exists(revoked))
    )


def open_incidents(event: Event) -> list[Incident]:
    """Incidents without a ruling, each with ``next_steps``: what the ladder proposes (the
    next step of the team's penalty ladder), so the chief sees it before opening one."""
    incidents = list(
        Incident.objects.filter(event=event, rulings__isnull=True)
        .select_related("match__round", "team", "logged_by", "event")
        .order_by("created_at")
    )
    settings = settings_of(event)
    for incident in incidents:
        proposed = [step_label(p.step) for p in proposal(incident)]
        record = team_steps(incident.team) if incident.team_id else []
        incident.record = [(Step(step).label, count) for step, count in Counter(record).items()]
        if proposed:
            incident.next_steps, incident.next_label = proposed, _("the ladder proposes")
        else:  # what a warning now sets off on the team's standing record (its next step)
            escalated = (
                ladder.escalate(record, ladder.WARNING, settings) if incident.team_id else []
            )
            incident.next_steps = [Step(step).label for step in escalated]
            incident.next_label = _("a warning now escalates to")
    return incidents


def unconfirmed_matches(event: Event) -> list[Match]:
    """Matches of the current round with no counting result yet."""
    round_ = current_round(event)
    if round_ is None:
        return []
    counting = ResultVersion.objects.filter(match=OuterRef("pk"), is_counting=True)
    return list(
        Match.objects.filter(round=round_, away__isnull=False)
        .annotate(has_result=Exists(counting))
        .filter(has_result=False)
        .select_related("home", "away")
        .order_by("table_number")
    )


def appeal_rows(appeals, now=None, member=None) -> list[dict]:
    now = now or timezone.now()
    rows = []
    for appeal in appeals:
        row = {
            "appeal": appeal,
            "state": answer_state(appeal, now),
            "deadline": answer_deadline(appeal),
            "refusal": refusal(appeal),
            "votes": appeal.votes.count(),
        }
        # a decided appeal shows its decision, never a countdown to its answer (issue 35)
        row["decision"] = getattr(appeal, "decision", None) if row["state"] == "decided" else None
        if member is not None:
            row["my_vote"] = next((v for v in appeal.votes.all() if v.member_id == member.pk), None)
        rows.append(row)
    return rows


def appeals_qs(event: Event):
    return (
        Appeal.objects.filter(event=event)
        .select_related("ruling__team", "team", "filed_by", "decision")
        .prefetch_related(Prefetch("votes", queryset=Vote.objects.select_related("member")))
        .order_by("filed_at")
    )


def chief_dashboard(event: Event) -> dict:
    appeals = [a for a in appeals_qs(event) if a.status != "decided"]
    return {
        "open_incidents": open_incidents(event),
        "disputes": open_calls(event),
        "pending_forfeits": pending_forfeits(event),
        "unconfirmed": unconfirmed_matches(event),
        "appeals": appeal_rows(appeals),
        "recent_rulings": list(rulings_qs(event).order_by("-created_at")[:20]),
    }


def committee_dashboard(event: Event, member) -> dict:
    appeals = list(appeals_qs(event))
    return {
        "open": appeal_rows([a for a in appeals if a.status == "open"], member=member),
        "decided": appeal_rows([a for a in appeals if a.status == "decided"], member=member),
        "refused": appeal_rows([a for a in appeals if a.status == "refused"], member=member),
    }


def team_record(team: Team) -> dict:
    return {
        "rulings": list(rulings_qs(team.event).filter(team=team).order_by("created_at")),
        "incidents": list(
            Incident.objects.filter(team=team).select_related("match__round").order_by("created_at")
        ),
        "appeals": appeal_rows(appeals_qs(team.event).filter(team=team)),
    }
