from django.contrib import admin

from tournaments import models


class ReadOnlyAdmin(admin.ModelAdmin):
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


@admin.register(models.Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "game", "preset", "num_rounds", "status")
    list_filter = ("game", "status")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}


@admin.register(models.Unit)
class UnitAdmin(admin.ModelAdmin):
    list_display = ("name", "tournament")
    list_filter = ("tournament",)
    search_fields = ("name",)


@admin.register(models.Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ("name", "tournament", "unit", "seed", "status")
    list_filter = ("tournament", "status")
    search_fields = ("name", "players__name")
    inlines = [PlayerInline]


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "team", "seat_order")
    search_fields = ("name", "team__name")


@admin.register(models.TournamentRole)
class TournamentRoleAdmin(admin.ModelAdmin):
    list_display = ("user", "tournament", "role", "team")
    list_filter = ("tournament", "role")
    search_fields = ("user__username",)


@admin.register(models.TableAssignment)
class TableAssignmentAdmin(admin.ModelAdmin):
    list_display = ("user", "tournament", "table_number")
    list_filter = ("tournament",)


@admin.register(models.Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "status", "draw_seed", "published_at")
    list_filter = ("tournament", "status")


@admin.register(models.Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("round", "table_number", "home", "away")
    list_filter = ("round__tournament",)
    search_fields = ("home__name", "away__name")


@admin.register(models.RoundSlot)
class RoundSlotAdmin(admin.ModelAdmin):
    list_display = ("round", "team", "side", "match")


@admin.register(models.AuditLog)
class AuditLogAdmin(ReadOnlyAdmin):
    """Read-only: the audit log is evidence."""

    list_display = (
        "created_at",
        "tournament",
        "actor",
        "action",
        "target_type",
        "target_id",
        "reason",
    )
    list_filter = ("tournament", "action")
    search_fields = ("action", "reason")


@admin.register(models.ExportJob)
class ExportJobAdmin(admin.ModelAdmin):
    list_display = ("tournament", "kind", "status", "progress", "total", "created_at")
    list_filter = ("status", "kind")


@admin.register(models.ResultVersion)
class ResultVersionAdmin(ReadOnlyAdmin):
    """Read-only: results are append-only versions; corrections are new versions."""

    list_display = ("match", "number", "kind", "is_counting", "created_by", "created_at")
    list_filter = ("kind", "is_counting", "match__round__tournament")


@admin.register(models.RankingAdjustment)
class RankingAdjustmentAdmin(admin.ModelAdmin):
    list_display = ("tournament", "team", "places", "source", "created_at", "cancelled_at")

    def has_delete_permission(self, request, obj=None):
        return False
