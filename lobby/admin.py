from django.contrib import admin

from .models import Table, TableSeat


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "game_slug", "host", "seats_count", "pace", "is_private", "status", "created")
    list_filter = ("game_slug", "status", "pace", "is_private")
    search_fields = ("host__username",)
    inlines = [TableSeatInline]
    raw_id_fields = ("host", "game")
