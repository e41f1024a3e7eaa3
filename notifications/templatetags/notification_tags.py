"""The header's bell and the page head's app links (templates/base.html includes them)."""
from django import template

from ..models import tab_preferences as preferences_of
from ..models import unread_count

register = template.Library()


@register.inclusion_tag("notifications/_bell.html", takes_context=True)
def notification_bell(context) -> dict:
    """The bell; its count from the page's `header` (config.header: the per-user record)
    when there is one, else read here."""
    header = context.get("header")
    if header is not None:
        unread = header.bell_unread
    else:
        user = context["user"]
        unread = unread_count(user.pk) if user.is_authenticated else 0
    return {"unread": unread, "oob": False}


@register.simple_tag(takes_context=True)
def tab_preferences(context) -> dict:
    """What an open tab does when a game becomes yours (blink: "your turn" in the site is
    on; sound: chosen), and the theme: from the page's `header` (config.header) when there
    is one, else read here (one query; visitors get the defaults)."""
    header = context.get("header")
    if header is not None:
        return header.tab_prefs
    return preferences_of(context["user"])


@register.simple_tag
def vapid_public_key() -> str:
    """The applicationServerKey browsers subscribe with ("" when push is not set up)."""
    from django.conf import settings

    return settings.VAPID_PUBLIC_KEY if settings.VAPID_PRIVATE_KEY else ""
