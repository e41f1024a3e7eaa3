"""How a person's name appears on a page: a name may be 150 characters with no space, so
it is drawn clipped with an ellipsis (CSS `.name`) and given whole in its title (hover)
and its text (screen readers, copy and paste), never widening a page."""
from __future__ import annotations

from django import template
from django.utils.html import format_html

register = template.Library()


@register.filter
def person(name) -> str:
    """<span class="name" title="NAME">NAME</span>, escaped."""
    return format_html('<span class="name" title="{0}">{0}</span>', name)
