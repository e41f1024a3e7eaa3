from django import template

from lobby.live import polling_interval_ms

register = template.Library()


@register.simple_tag
def live_poll_ms() -> int:
    """How often a page polls for what its socket cannot bring (lobby.live): 0, never,
    unless the channel layer is in memory."""
    return polling_interval_ms()
