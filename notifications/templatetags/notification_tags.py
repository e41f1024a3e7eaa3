"""The header's bell and the page head's app links (templates/base.html includes them)."""
from django import template

from ..kinds import SITE
from ..models import Notification, Preferences, channels_for

register = template.Library()


@register.inclusion_tag("notifications/_bell.html", takes_context=True)
def notification_bell(context) -> dict:
    """The bell; `bell_unread` in the context: its count, read already (config.shell)."""
    unread = context.get("bell_unread")
    if unread is None:
        user = context["user"]
        unread = Notification.objects.filter(user=user, read=False).count() if user.is_authenticated else 0
    return {"unread": unread, "oob": False}


@register.simple_tag(takes_context=True)
def tab_preferences(context) -> dict:
    """What an open tab does when a game becomes yours (blink: "your turn" in the site is
    on; sound: chosen), and the theme. One query a page; visitors get the defaults.
    `tab_prefs` in the context: these, read already (config.shell)."""
    if context.get("tab_prefs") is not None:
        return context["tab_prefs"]
    user = context["user"]
    prefs = Preferences.objects.filter(user=user).first() if user.is_authenticated else None
    prefs = prefs or Preferences(user=user if user.is_authenticated else None)
    blink = user.is_authenticated and SITE in channels_for(user, "turn", prefs)
    return {"sound": prefs.sound and blink, "blink": blink, "theme": prefs.theme}


@register.simple_tag
def vapid_public_key() -> str:
    """The applicationServerKey browsers subscribe with ("" when push is not set up)."""
    from django.conf import settings

    return settings.VAPID_PUBLIC_KEY if settings.VAPID_PRIVATE_KEY else ""
