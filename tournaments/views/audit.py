"""The event's audit log for its organisers and chief referee: who did what, when, why."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import Q
from django.views.generic import TemplateView

from tournaments.models import AuditLog, Team
from tournaments.validation import whole_number

from .mixins import RoleRequiredMixin

PAGE_SIZE = 100


def audit_entries(event, team: str = "", table: str = "", kind: str = ""):
    """The event's entries, newest first, filtered by team name, table number and kind (the
    first word of the action: result, round, team, role, ruling …). Each entry keeps the
    teams and the table it is about (tournaments.audit_actions.subjects), arbitration's too."""
    entries = AuditLog.objects.filter(event=event).select_related("actor")
    if kind:
        entries = entries.filter(Q(action=kind) | Q(action__startswith=kind + "."))
    if team:
        teams = Team.objects.filter(event=event, name__icontains=team).values("pk")
        entries = entries.filter(Q(team__in=teams) | Q(other_team__in=teams))
    if table:
        number = whole_number(table)
        entries = entries.filter(table_number=number) if number is not None else entries.none()
    return entries.order_by("-created_at", "-pk")


class AuditLogView(RoleRequiredMixin, TemplateView):
    template_name = "tournaments/audit/index.html"
    action = "audit.view"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        query = {
            name: self.request.GET.get(name, "").strip()[:100] for name in ("team", "table", "kind")
        }
        entries = audit_entries(self.event, **query)
        page = Paginator(entries, PAGE_SIZE).get_page(self.request.GET.get("page"))
        kinds = sorted(
            {
                action.split(".")[0]
                for action in AuditLog.objects.filter(event=self.event)
                .values_list("action", flat=True)
                .distinct()
            }
        )
        context.update(page=page, query=query, kinds=kinds)
        return context
