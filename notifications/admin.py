from django.contrib import admin

from .models import Notification, PushSubscription


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["created", "user", "kind", "text", "read"]
    list_filter = ["kind", "read"]
    search_fields = ["user__username", "text"]
    raw_id_fields = ["user", "game"]


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ["user", "device", "created", "last_used"]
    search_fields = ["user__username", "device"]
    raw_id_fields = ["user"]
