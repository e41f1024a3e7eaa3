from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .models import Rating, RatingEvent, User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (*(BaseUserAdmin.fieldsets or ()), ("Switchback", {"fields": ("email_turn_notifications",)}))
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "game_slug", "display", "mu", "sigma", "games_played", "updated")
    list_filter = ("game_slug",)
    search_fields = ("user__username",)
    readonly_fields = ("updated",)


@admin.register(RatingEvent)
class RatingEventAdmin(admin.ModelAdmin):
    """The audit trail of ratings: read-only (rebuild with `manage.py rerate`)."""

    list_display = ("game", "user", "game_slug", "rank", "players", "mu_before", "mu_after", "sigma_after", "played_at")
    list_filter = ("game_slug",)
    search_fields = ("user__username",)
    list_select_related = ("user", "game")

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_add_permission(self, request) -> bool:
        return False
