"""Chat endpoints: the chat box (a partial), posting a line, muting an author, reporting a line.

Every answer is the refreshed chat box, so htmx swaps it in place; refusals are 4xx with
the reason shown in the box.
"""
from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_POST

from config.abuse import limited
from games.engine import Rejected
from games.models import Game
from lobby.models import Table

from . import services
from .models import CANNED_PHRASES, MAX_LENGTH, ChatMessage, ChatReport

def _room(kind: str, pk: int) -> services.Room:
    if kind == "game":
        return services.game_room(get_object_or_404(Game.objects.prefetch_related("seats"), pk=pk))
    return services.table_room(get_object_or_404(Table.objects.prefetch_related("seats"), pk=pk))


def _box(request: HttpRequest, room: services.Room, kind: str, pk: int, *, error: str = "",
         status: int = 200) -> HttpResponse:
    if not room.can_read(request.user):
        return render(request, "chat/_closed.html", {"kind": kind}, status=403 if status == 200 else status)
    return render(request, "chat/_box.html", {
        "kind": kind, "pk": pk, "lines": services.history(room, request.user),
        "can_write": room.can_write(request.user), "phrases": CANNED_PHRASES, "max_length": MAX_LENGTH,
        "error": error,
    }, status=status)


def box(request: HttpRequest, kind: str, pk: int) -> HttpResponse:
    return _box(request, _room(kind, pk), kind, pk)


@require_POST
@limited("chat")  # settings.RATELIMITS["chat"], per user and per address (config.abuse)
def post(request: HttpRequest, kind: str, pk: int) -> HttpResponse:
    room = _room(kind, pk)
    try:
        services.post(room, request.user, request.POST.get("text", ""))
    except Rejected as exc:
        return _box(request, room, kind, pk, error=exc.message, status=exc.status)
    return _box(request, room, kind, pk)


@require_POST
def mute(request: HttpRequest, kind: str, pk: int, user_id: int) -> HttpResponse:
    room = _room(kind, pk)
    if not request.user.is_authenticated or not room.can_read(request.user):
        return _box(request, room, kind, pk, error="Log in to mute someone.", status=403)
    try:
        services.set_mute(room, request.user, user_id, request.POST.get("on", "1") == "1")
    except Rejected as exc:
        return _box(request, room, kind, pk, error=exc.message, status=exc.status)
    return _box(request, room, kind, pk)


@require_POST
def report(request: HttpRequest, kind: str, pk: int, message_id: int) -> HttpResponse:
    room = _room(kind, pk)
    message = ChatMessage.objects.filter(room.lines(), pk=message_id).first()
    if message is None or not request.user.is_authenticated or not room.can_read(request.user):
        return _box(request, room, kind, pk, error="There is no such line to report.", status=404)
    ChatReport.objects.get_or_create(message=message, reporter=request.user)
    return _box(request, room, kind, pk, error="Thanks: a moderator will look at it.")
