from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .models import Rating, User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = BaseUserAdmin.fieldsets + (("Switchback", {"fields": ("email_turn_notifications",)}),)
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "game_slug", "display", "mu", "sigma", "games_played", "updated")
    list_filter = ("game_slug",)
    search_fields = ("user__username",)
    readonly_fields = ("updated",)
