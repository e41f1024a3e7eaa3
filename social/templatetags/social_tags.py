"""Small includes for pages other apps own: the profile's actions and lists, and the home
page's "friends online / playing now" and challenge count."""
from __future__ import annotations

from django import template
from django.db.models import Q

from .. import services
from ..models import Block, Follow, Invite

register = template.Library()


@register.inclusion_tag("social/_profile_actions.html", takes_context=True)
def profile_actions(context, player):
    """The profile's Challenge / Follow / Block, its following list and reliability: two
    queries on your own profile, four on someone else's."""
    me = context["request"].user
    mine = me.is_authenticated and me.pk == player.pk
    other = me.is_authenticated and not mine
    blockers = set(Block.objects.filter(Q(blocker=me, blocked=player) | Q(blocker=player, blocked=me))
                   .values_list("blocker_id", flat=True)) if other else set()
    return {
        "player": player, "user": me, "mine": mine, "csrf_token": context.get("csrf_token"),
        "follows": other and Follow.objects.filter(follower=me, followee=player).exists(),
        "i_blocked": me.pk in blockers, "blocked": bool(blockers),
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
