"""The site's URLs plus /bench/bare/: the cheapest authenticated request the stack serves
(session + user lookup, middleware, a tiny response), /bench/floor/<game>/: the floor of
a live push, and /bench/move-floor/<game>/: the floor of an HTTP move (issue 21). Benchmarks only (bench.settings)."""
import json
import os

from channels.layers import get_channel_layer
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpResponse
from django.utils import timezone
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt

from games.groups import audience_group


@login_required
def bare(request):
    return HttpResponse(f"ok {os.getpid()}", content_type="text/plain")


@csrf_exempt
async def floor(request, game_id: int):
    """The floor of a move's fan-out: through the same channel layer and GameConsumers to the
    same sockets, a ready-made string per audience as long as the client says (its real
    panel's length: POST sizes={"0": n, ..., "s": n}); no database, no render."""
    sizes = json.loads(request.POST["sizes"])
    layer = get_channel_layer()
    for audience, size in sizes.items():
        seat = None if audience == "s" else int(audience)
        html = "x" * int(size)
        await layer.group_send(audience_group(game_id, seat), {"type": "game.panel", "html": html,
                                                               "html_by_language": {}})
    return HttpResponse("ok", content_type="text/plain")


@login_required
def move_floor(request, game_id: int):
    """The floor of an HTTP move (issue 21): the bare request plus what every move must do
    whatever the game — lock the game's row, write it, commit — and a canned answer."""
    from games.models import Game

    with transaction.atomic():
        Game.objects.select_for_update().filter(pk=game_id).values_list("version").get()
        Game.objects.filter(pk=game_id).update(updated=timezone.now())
    return HttpResponse("moved", content_type="text/plain")


urlpatterns = [path("bench/bare/", bare), path("bench/floor/<int:game_id>/", floor),
               path("bench/move-floor/<int:game_id>/", move_floor), path("", include("config.urls"))]
