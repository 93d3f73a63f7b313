"""The event's audit log for its organisers and chief referee: who did what, when, why."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import Q
from django.views.generic import TemplateView

from tournaments.models import AuditLog, Match, Team

from .mixins import RoleRequiredMixin

PAGE_SIZE = 100


def audit_entries(tournament, team: str = "", table: str = "", kind: str = ""):
    """The event's entries, newest first, filtered by team name, table number and kind (the
    first word of the action: result, round, team, role, ruling …)."""
    entries = AuditLog.objects.filter(tournament=tournament).select_related("actor")
    if kind:
        entries = entries.filter(Q(action=kind) | Q(action__startswith=kind + "."))
    matches = Match.objects.filter(round__tournament=tournament)
    if team:
        teams = list(
            Team.objects.filter(tournament=tournament, name__icontains=team).values_list(
                "pk", flat=True
            )
        )
        match_ids = matches.filter(Q(home_id__in=teams) | Q(away_id__in=teams)).values_list(
            "pk", flat=True
        )
        entries = entries.filter(
            Q(target_type="tournaments.team", target_id__in=[str(pk) for pk in teams])
            | Q(target_type="tournaments.match", target_id__in=[str(pk) for pk in match_ids])
        )
    if table.isdigit():
        match_ids = matches.filter(table_number=int(table)).values_list("pk", flat=True)
        entries = entries.filter(
            target_type="tournaments.match", target_id__in=[str(pk) for pk in match_ids]
        )
    return entries.order_by("-created_at", "-pk")


class AuditLogView(RoleRequiredMixin, TemplateView):
    template_name = "tournaments/audit/index.html"
    action = "audit.view"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        query = {
            name: self.request.GET.get(name, "").strip()[:100] for name in ("team", "table", "kind")
        }
        entries = audit_entries(self.tournament, **query)
        page = Paginator(entries, PAGE_SIZE).get_page(self.request.GET.get("page"))
        kinds = sorted(
            {
                action.split(".")[0]
                for action in AuditLog.objects.filter(tournament=self.tournament)
                .values_list("action", flat=True)
                .distinct()
            }
        )
        context.update(page=page, query=query, kinds=kinds)
        return context
