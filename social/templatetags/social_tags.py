"""Small includes for pages other apps own: the profile's actions and lists, and the home
page's "friends online / playing now" and challenge count."""
from __future__ import annotations

from django import template

from .. import services
from ..blocks import is_blocked
from ..models import Block, Follow, Invite

register = template.Library()


@register.inclusion_tag("social/_profile_actions.html", takes_context=True)
def profile_actions(context, player):
    me = context["request"].user
    mine = me.is_authenticated and me.pk == player.pk
    return {
        "player": player, "user": me, "mine": mine, "csrf_token": context.get("csrf_token"),
        "follows": me.is_authenticated and not mine and Follow.objects.filter(follower=me, followee=player).exists(),
        "i_blocked": me.is_authenticated and Block.objects.filter(blocker=me, blocked=player).exists(),
        "blocked": me.is_authenticated and not mine and is_blocked(me, player),
        "following": list(Follow.objects.filter(follower=player).select_related("followee")
                          .order_by("followee__username")[:100]),
        "reliability": services.reliability(player),
    }


@register.inclusion_tag("social/_friends_now.html", takes_context=True)
def friends_now(context):
    me = context["request"].user
    if not me.is_authenticated:
        return {"show": False}
    return {"show": True, "friends": services.friends_now(me),
            "challenges": Invite.objects.filter(user=me, answer=Invite.Answer.PENDING,
                                                challenge__status="open").count()}


@register.inclusion_tag("social/_lobby_filters.html", takes_context=True)
def lobby_filters(context):
    from games import rules as registry

    from ..filters import current

    user = context["request"].user
    return {"show": user.is_authenticated, "values": current(user), "rulesets": registry.all()}
