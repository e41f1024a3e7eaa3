"""The header's bell and the page head's app links (templates/base.html includes them)."""
from django import template
from django.contrib.auth import get_user_model
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce

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
    return _tab_preferences(user, prefs)


def _tab_preferences(user, prefs: Preferences | None) -> dict:
    prefs = prefs or Preferences(user=user if user.is_authenticated else None)
    blink = user.is_authenticated and SITE in channels_for(user, "turn", prefs)
    return {"sound": prefs.sound and blink, "blink": blink, "theme": prefs.theme}


def bell_and_tab_preferences(user) -> tuple[int, dict]:
    """The bell's unread count and the tab preferences of a logged-in user in one query
    (config.shell reads them on every visit of a kept page; the tags read them apart)."""
    unread = (Notification.objects.filter(user=OuterRef("pk"), read=False).order_by().values("user")
              .annotate(n=Count("pk")).values("n"))
    row = (get_user_model().objects.filter(pk=user.pk).annotate(unread=Coalesce(Subquery(unread), 0))
           .values_list("unread", "notification_preferences__pk", "notification_preferences__choices",
                        "notification_preferences__sound", "notification_preferences__theme").first())
    if row is None:
        return 0, _tab_preferences(user, None)
    count, pk, choices, sound, theme = row
    prefs = Preferences(pk=pk, user=user, choices=choices, sound=sound, theme=theme) if pk is not None else None
    return count, _tab_preferences(user, prefs)


@register.simple_tag
def vapid_public_key() -> str:
    """The applicationServerKey browsers subscribe with ("" when push is not set up)."""
    from django.conf import settings

    return settings.VAPID_PUBLIC_KEY if settings.VAPID_PRIVATE_KEY else ""
