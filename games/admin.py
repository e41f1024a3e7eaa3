"""Admin for games. Moves are read-only history; a running game's state and seed stay
hidden (staff may be players too), and a finished game links to its replay."""
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from .models import Game, Move, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "is_bot", "rank", "score")
    readonly_fields = ("index", "rank", "score")
    raw_id_fields = ("user",)


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    fields = ("seq", "seat", "action", "by_bot", "created")
    readonly_fields = fields
    can_delete = False
    ordering = ("seq",)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        # Moves of a running game would reveal the choices of a simultaneous round.
        return super().get_queryset(request).exclude(game__status=Game.Status.ACTIVE)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "game_slug", "status", "players", "version", "pace", "created", "finished_at", "replay_link")
    list_filter = ("game_slug", "status", "pace")
    search_fields = ("seats__user__username",)
    inlines = [SeatInline, MoveInline]
    actions = ["abort_games"]

    def get_fields(self, request, obj=None):
        fields = ["game_slug", "rules_version", "options", "players", "version", "status", "pace",
                  "days_per_move", "turn_deadline", "rated", "created", "finished_at", "replay_link"]
        if obj is not None and not obj.is_active:
            fields += ["seed", "state"]
        return fields

    def get_readonly_fields(self, request, obj=None):
        editable = {"status", "turn_deadline", "days_per_move"}
        return [f for f in self.get_fields(request, obj) if f not in editable]

    def has_add_permission(self, request):
        return False  # games start from tables, through the engine

    @admin.display(description="Replay")
    def replay_link(self, obj):
        if obj.pk is None or obj.is_active:
            return "—"
        return format_html('<a href="{}">Replay</a>', reverse("games:replay", args=[obj.pk]))

    @admin.action(description="Abort the selected games")
    def abort_games(self, request, queryset):
        queryset.filter(status=Game.Status.ACTIVE).update(status=Game.Status.ABORTED)


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "seq", "seat", "by_bot", "created")
    readonly_fields = ("game", "seq", "seat", "action", "token", "by_bot", "created")
    list_filter = ("by_bot",)

    def get_queryset(self, request):
        return super().get_queryset(request).exclude(game__status=Game.Status.ACTIVE)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
