"""The header's bell and the page head's app links (templates/base.html includes them)."""
from django import template

from ..models import Notification, Preferences

register = template.Library()


@register.inclusion_tag("notifications/_bell.html", takes_context=True)
def notification_bell(context) -> dict:
    user = context["user"]
    unread = Notification.objects.filter(user=user, read=False).count() if user.is_authenticated else 0
    return {"unread": unread, "oob": False}


@register.simple_tag(takes_context=True)
def tab_preferences(context) -> Preferences:
    """The player's sound and theme choices (defaults for visitors), one query a page."""
    user = context["user"]
    prefs = Preferences.objects.filter(user=user).first() if user.is_authenticated else None
    return prefs or Preferences()


@register.simple_tag
def vapid_public_key() -> str:
    """The applicationServerKey browsers subscribe with ("" when push is not set up)."""
    from django.conf import settings

    return settings.VAPID_PUBLIC_KEY if settings.VAPID_PRIVATE_KEY else ""
