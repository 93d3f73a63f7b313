"""Back office: arbitration records are evidence, so the admin shows them read-only.

Nobody changes or deletes an incident, ruling, revocation, appeal, vote or decision here;
corrections are new records made through the pages or the API (which log them).
"""

from django.contrib import admin

from arbitration import models
from tournaments.admin import ReadOnlyAdmin


@admin.register(models.Incident)
class IncidentAdmin(ReadOnlyAdmin):
    list_display = ("pk", "event", "category", "team", "logged_by", "created_at")
    list_filter = ("event", "category")


@admin.register(models.Evidence)
class EvidenceAdmin(ReadOnlyAdmin):
    list_display = ("pk", "incident", "action", "created_by", "created_at")


@admin.register(models.Ruling)
class RulingAdmin(ReadOnlyAdmin):
    list_display = ("pk", "event", "team", "step", "automatic", "decided_by", "created_at")
    list_filter = ("event", "step")


@admin.register(models.Revocation)
class RevocationAdmin(ReadOnlyAdmin):
    list_display = ("ruling", "appeal", "decided_by", "created_at")


@admin.register(models.Appeal)
class AppealAdmin(ReadOnlyAdmin):
    list_display = ("pk", "event", "team", "ruling", "filed_at", "late")
    list_filter = ("event",)


@admin.register(models.Vote)
class VoteAdmin(ReadOnlyAdmin):
    list_display = ("appeal", "member", "choice", "created_at")


@admin.register(models.AppealDecision)
class AppealDecisionAdmin(ReadOnlyAdmin):
    list_display = ("appeal", "choice", "votes", "members", "decided_at")
