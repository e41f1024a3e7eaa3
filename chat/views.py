"""Chat endpoints: the chat box (a partial), posting a line, muting an author, reporting a line.

Every answer is the refreshed chat box, so htmx swaps it in place; refusals are 4xx with
the reason shown in the box.
"""
from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_POST
from django_ratelimit.exceptions import Ratelimited

from config.abuse import limited
from games.engine import Rejected
from games.models import Game
from lobby.models import Table

from . import services
from .models import CANNED_PHRASES, MAX_LENGTH, ChatMessage, ChatMute, ChatReport


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
        "can_write": room.can_write(request.user), "phrases": [str(phrase) for phrase in CANNED_PHRASES],
        "max_length": MAX_LENGTH,
        "error": error,
    }, status=status)


def box(request: HttpRequest, kind: str, pk: int) -> HttpResponse:
    return _box(request, _room(kind, pk), kind, pk)


TOO_FAST = gettext_lazy("You are writing too fast: wait a minute, then try again.")


def _limited_in_the_box(view):
    """settings.RATELIMITS["chat"], per user and per address (config.abuse). Over the limit,
    the answer is the chat box with the reason in it (429): the site's generic refusal is
    the game panel's message element, which would replace the whole box and put a second
    #game-panel on the page."""
    counted = limited("chat")(view)

    @wraps(view)
    def answer(request: HttpRequest, kind: str, pk: int) -> HttpResponse:
        try:
            return counted(request, kind, pk)
        except Ratelimited:
            return _box(request, _room(kind, pk), kind, pk, error=str(TOO_FAST), status=429)
    return answer


@require_POST
@_limited_in_the_box
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
        return _box(request, room, kind, pk, error=_("Log in to mute someone."), status=403)
    if not get_user_model().objects.filter(pk=user_id).exists():
        return _box(request, room, kind, pk, error=_("There is no such player to mute."), status=404)
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
        return _box(request, room, kind, pk, error=_("There is no such line to report."), status=404)
    ChatReport.objects.get_or_create(message=message, reporter=request.user)
    return _box(request, room, kind, pk, error=_("Thanks: a moderator will look at it."))


@login_required
@require_POST
def unmute(request: HttpRequest, user_id: int) -> HttpResponse:
    """From the settings page's list of muted players: their lines show again everywhere
    (chat pages opened from now on)."""
    removed, _kinds = ChatMute.objects.filter(reader_id=request.user.pk, muted_id=user_id).delete()
    if removed:
        messages.success(request, _("Unmuted: you see their chat lines again."))
    else:
        messages.info(request, _("That player was not muted."))
    return redirect("accounts:settings")
