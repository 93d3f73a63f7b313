"""Back office. History is never removed here: users with history are deactivated, not
deleted; a published round's matches and slots stay; ``delete_selected`` (which skips every
per-object check) is offered nowhere."""

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tournaments import models
from tournaments.services import users
from tournaments.services.audit import client_address


class NoBulkDeleteAdmin(admin.ModelAdmin):
    """No ``delete_selected``: a bulk delete checks no object's history."""

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions


class ReadOnlyAdmin(NoBulkDeleteAdmin):
    """Evidence (audit log, result versions, arbitration records): shown, never changed here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class PlayerInline(admin.TabularInline):
    model = models.Player
    extra = 0
    max_num = 2


@admin.register(models.Event)
class EventAdmin(NoBulkDeleteAdmin):
    list_display = ("name", "slug", "game", "preset", "num_rounds", "status")
    list_filter = ("game", "status")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}

    def has_delete_permission(self, request, obj=None):
        """An event is deleted only while it has no published round and no audit entry."""
        if obj is not None and (
            obj.rounds.exclude(status=models.Round.Status.DRAFT).exists() or obj.audit_log.exists()
        ):
            return False
        return super().has_delete_permission(request, obj)


@admin.register(models.Unit)
class UnitAdmin(NoBulkDeleteAdmin):
    list_display = ("name", "event")
    list_filter = ("event",)
    search_fields = ("name",)


@admin.register(models.Team)
class TeamAdmin(NoBulkDeleteAdmin):
    list_display = ("name", "event", "unit", "seed", "status")
    list_filter = ("event", "status")
    search_fields = ("name", "players__name")
    inlines = [PlayerInline]


@admin.register(models.Player)
class PlayerAdmin(NoBulkDeleteAdmin):
    list_display = ("name", "team", "seat_order")
    search_fields = ("name", "team__name")


@admin.register(models.EventRole)
class EventRoleAdmin(NoBulkDeleteAdmin):
    list_display = ("user", "event", "role", "team")
    list_filter = ("event", "role")
    search_fields = ("user__username",)


@admin.register(models.TableAssignment)
class TableAssignmentAdmin(NoBulkDeleteAdmin):
    list_display = ("user", "event", "table_number")
    list_filter = ("event",)


@admin.register(models.Round)
class RoundAdmin(NoBulkDeleteAdmin):
    list_display = ("event", "number", "status", "draw_seed", "published_at")
    list_filter = ("event", "status")

    def has_delete_permission(self, request, obj=None):
        if obj is not None and not is_draft(obj):
            return False
        return super().has_delete_permission(request, obj)


def is_draft(round_) -> bool:
    return round_ is not None and round_.status == models.Round.Status.DRAFT


@admin.register(models.Match)
class MatchAdmin(NoBulkDeleteAdmin):
    """A published round's pairing is played: its matches are not deleted (a draft is
    redrawn on the rounds page)."""

    list_display = ("round", "table_number", "home", "away")
    list_filter = ("round__event",)
    search_fields = ("home__name", "away__name")

    def has_delete_permission(self, request, obj=None):
        if obj is not None and not is_draft(obj.round):
            return False
        return super().has_delete_permission(request, obj)


@admin.register(models.RoundSlot)
class RoundSlotAdmin(NoBulkDeleteAdmin):
    list_display = ("round", "team", "side", "match")

    def has_delete_permission(self, request, obj=None):
        if obj is not None and not is_draft(obj.round):
            return False
        return super().has_delete_permission(request, obj)


@admin.register(models.AuditLog)
class AuditLogAdmin(ReadOnlyAdmin):
    """Read-only: the audit log is evidence."""

    list_display = (
        "created_at",
        "event",
        "actor_name",
        "action",
        "target_type",
        "target_id",
        "reason",
    )
    list_filter = ("event", "action")
    search_fields = ("action", "reason", "actor_name")


@admin.register(models.Job)
class JobAdmin(NoBulkDeleteAdmin):
    list_display = ("event", "kind", "status", "progress", "total", "created_at")
    list_filter = ("status", "kind")


@admin.register(models.ResultVersion)
class ResultVersionAdmin(ReadOnlyAdmin):
    """Read-only: results are append-only versions; corrections are new versions."""

    list_display = ("match", "number", "kind", "is_counting", "created_by_name", "created_at")
    list_filter = ("kind", "is_counting", "match__round__event")


@admin.register(models.RankingAdjustment)
class RankingAdjustmentAdmin(NoBulkDeleteAdmin):
    list_display = ("event", "team", "places", "source", "created_at", "cancelled_at")

    def has_delete_permission(self, request, obj=None):
        return False


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class PaisaiUserAdmin(UserAdmin):
    """Accounts: one with history (entered, confirmed, ruled, voted …) is deactivated, never
    deleted, so every record keeps who did it."""

    actions = ["deactivate"]

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def has_delete_permission(self, request, obj=None):
        if obj is not None and users.has_history(obj):
            return False
        return super().has_delete_permission(request, obj)

    @admin.action(description=_("Deactivate the selected users (they keep their history)"))
    def deactivate(self, request, queryset):
        for user in queryset:
            users.deactivate(user, request.user, client_address(request))
        count = len(queryset)
        self.message_user(
            request,
            ngettext("%(n)d user deactivated.", "%(n)d users deactivated.", count) % {"n": count},
            messages.SUCCESS,
        )


@admin.register(models.Stage)
class StageAdmin(ReadOnlyAdmin):
    """Stages are set up on the organiser's pages (tournaments.services.stages and
    stage_sections, logged)."""

    list_display = ("event", "order", "name", "kind", "entrants", "qualify_top")
    list_filter = ("kind",)
