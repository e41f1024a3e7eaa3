"""Moderation: hide lines, see the reports."""
from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy

from .models import ChatMessage, ChatMute, ChatReport


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("created", "author", "text", "game", "table", "hidden", "report_count")
    list_filter = ("hidden",)
    search_fields = ("author__username", "text")
    list_select_related = ("author", "game", "table")
    readonly_fields = ("game", "table", "author", "text", "created")
    actions = ["hide", "show"]

    @admin.display(description=gettext_lazy("Reports"))
    def report_count(self, obj: ChatMessage) -> int:
        return obj.reports.count()

    @admin.action(description=gettext_lazy("Hide the selected lines"))
    def hide(self, request, queryset) -> None:
        queryset.update(hidden=True)
        ChatReport.objects.filter(message__in=queryset).update(resolved=True)

    @admin.action(description=gettext_lazy("Show the selected lines again"))
    def show(self, request, queryset) -> None:
        queryset.update(hidden=False)

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    list_display = ("created", "reporter", "message", "resolved")
    list_filter = ("resolved",)
    list_select_related = ("reporter", "message__author")
    actions = ["hide_messages"]

    @admin.action(description=gettext_lazy("Hide the reported lines"))
    def hide_messages(self, request, queryset) -> None:
        ChatMessage.objects.filter(reports__in=queryset).update(hidden=True)
        queryset.update(resolved=True)


admin.site.register(ChatMute)
