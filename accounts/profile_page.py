"""A player's page, its parts that are the same for every reader kept between visits
(issue 21: the profile of a player with 40 games in play and 300 finished was 14-17x a
bare request, on every visit).

The standings (counts, ratings, the rating charts), the current games, the recent results
and the head-to-head are the same for everyone who reads the page in a language and time
zone, and change only when one of the player's games does, or a rating is written. They are
drawn once and kept under a stamp of those: the player's seats (how many, the newest change
of their games: every move, ending and clock saves its game) and their newest rating event,
read with the player's own row in one query. The reader's buttons (challenge, follow, block)
are drawn on every visit (social's profile_actions).
"""
from __future__ import annotations

from django.core.cache import cache
from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from games.models import Seat

from . import stats
from .models import PROVISIONAL_SIGMA, RatingEvent, User

# A bound on what the stamp does not see: a provisional mark that lapses with time, an
# opponent renamed in the lists.
KEPT_SECONDS = 300
KEPT_FORMAT = 1   # raise it when the kept parts' markup or content changes


def with_profile_stamp(users: QuerySet[User]) -> QuerySet[User]:
    """The users with what their page's kept parts are made of, in the same query."""
    seats = Seat.objects.filter(user=OuterRef("pk"))
    return users.annotate(
        stamp_seats=Subquery(seats.order_by().values("user").annotate(n=Count("pk")).values("n")[:1]),
        stamp_game_change=Subquery(seats.order_by("-game__updated").values("game__updated")[:1]),
        stamp_rating_event=Subquery(RatingEvent.objects.filter(user=OuterRef("pk")).order_by("-pk").values("pk")[:1]),
    )


def kept_parts(player: User) -> dict[str, str]:
    """{"summary": the standings card, "lists": current games, results, head-to-head},
    from the cache while the player's stamp (with_profile_stamp) holds."""
    changed = getattr(player, "stamp_game_change", None)
    stamp = (f"{player.username}:{getattr(player, 'stamp_seats', None)}:{changed.timestamp() if changed else 0}:"
             f"{getattr(player, 'stamp_rating_event', None)}")
    key = f"profile:{KEPT_FORMAT}:{player.pk}:{get_language()}:{timezone.get_current_timezone_name()}:{stamp}"
    parts = cache.get(key)
    if parts is None:
        context = {"player": player, "standings": stats.standings(player), "current": stats.current_games(player),
                   "results": stats.recent_results(player), "rivals": stats.head_to_head(player),
                   "provisional_sigma": PROVISIONAL_SIGMA}
        parts = {"summary": render_to_string("accounts/_profile_summary.html", context),
                 "lists": render_to_string("accounts/_profile_lists.html", context)}
        cache.set(key, parts, KEPT_SECONDS)
    return {name: mark_safe(html) for name, html in parts.items()}  # our templates' output, escaped as drawn
