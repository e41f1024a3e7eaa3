"""Admin for games. Every change to a game goes through games.engine (the only writer):
the admin shows, and its one action, "abort", calls engine.abort_game. Games, seats and
moves are read-only and cannot be added or deleted (a replay needs every move). A running
game's state, seed and moves stay hidden (staff may be players too); a finished game
links to its replay."""
from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext, gettext_lazy as _, ngettext

from . import engine
from .models import Game, Move, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "is_bot", "rank", "score", "bot_since", "resigned")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


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

    def has_delete_permission(self, request, obj=None):
        return False  # a deleted move breaks the game's replay

    def get_queryset(self, request):
        # Moves of a running game would reveal the choices of a simultaneous round.
        return super().get_queryset(request).exclude(game__status=Game.Status.ACTIVE)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "game_slug", "status", "ending", "players", "version", "pace", "created", "finished_at",
                    "replay_link")
    list_filter = ("game_slug", "status", "ending", "pace")
    search_fields = ("seats__user__username",)
    inlines = [SeatInline, MoveInline]
    actions = ["abort_games"]

    def get_fields(self, request, obj=None):
        fields = ["game_slug", "rules_version", "options", "players", "version", "status", "pace",
                  "days_per_move", "turn_deadline", "rated", "created", "finished_at", "ending", "ended_by",
                  "ended_by_seat", "ended_on_move", "replay_link"]
        if obj is not None and not obj.is_active:
            fields += ["seed", "state"]
        return fields

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)  # nothing is edited around the engine

    def has_add_permission(self, request):
        return False  # games start from tables, through the engine

    def has_delete_permission(self, request, obj=None):
        return False  # abort instead: a game's record stays verifiable

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    @admin.display(description=_("Replay"))
    def replay_link(self, obj):
        if obj.pk is None or obj.is_active:
            return "—"
        return format_html('<a href="{}">{}</a>', reverse("games:replay", args=[obj.pk]), gettext("Replay"))

    @admin.action(description=_("Abort the selected games"))
    def abort_games(self, request, queryset):
        aborted = 0
        for game_id in queryset.filter(status=Game.Status.ACTIVE).values_list("pk", flat=True):
            try:
                engine.abort_game(game_id, by=request.user, reason="admin")
                aborted += 1
            except engine.Rejected as exc:  # finished meanwhile
                refusal = gettext("Game %(number)s: %(reason)s") % {"number": game_id, "reason": exc.message}
                self.message_user(request, refusal, messages.WARNING)
        self.message_user(request, ngettext("Aborted %(count)s game.", "Aborted %(count)s games.", aborted)
                          % {"count": aborted}, messages.SUCCESS)


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

    def has_delete_permission(self, request, obj=None):
        return False  # a deleted move breaks the game's replay
