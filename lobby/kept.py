"""The lobby's parts that are the same for every visitor, drawn once per change and kept
(issue 21: the lobby ≤ 5x a bare request).

"Recently finished" lists the last games to end with their winners: the same for everyone
who reads the page in a language, and changed only by the next game to end. It is kept
under that newest ending (one indexed query reads it) and the language.
"""
from __future__ import annotations

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from games.models import Game

RECENT_GAMES = 10
KEPT_SECONDS = 600   # a bound on what the stamp does not see (a winner renamed, a game deleted)
KEPT_FORMAT = 1      # raise it when the list's markup changes


def recently_finished_html() -> str:
    finished = Game.objects.filter(status=Game.Status.FINISHED)
    newest = finished.order_by("-finished_at", "-pk").values_list("pk", "finished_at").first()
    stamp = f"{newest[0]}:{newest[1].timestamp() if newest[1] else 0}" if newest else "none"
    key = f"lobby-recent:{KEPT_FORMAT}:{get_language()}:{stamp}"
    html = cache.get(key)
    if html is None:
        games = (finished.defer("state").prefetch_related("seats__user").order_by("-finished_at")[:RECENT_GAMES])
        html = render_to_string("lobby/_recently_finished.html", {"recent_games": games})
        cache.set(key, html, KEPT_SECONDS)
    return mark_safe(html)  # our own template's output, escaped as it was drawn
