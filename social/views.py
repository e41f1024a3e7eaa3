"""Pages for finding people and games: search, follow, block (and the muted list),
challenges (inbox and form) and quick pairing (its waiting page polls every 2 s)."""
from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_POST

from chat.models import ChatMute
from games.models import Game

from . import blocks, services
from .forms import ChallengeForm, SeekForm
from .models import Challenge, Invite, Seek


def _me(request: HttpRequest) -> Any:
    """The logged-in player (the views that use it are login_required)."""
    return request.user


def search(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")[:150]
    return render(request, "social/search.html", {"query": query, "players": services.search(query)})


def _player(username: str):
    return get_object_or_404(get_user_model(), username=username)


def _back(request: HttpRequest, username: str) -> HttpResponse:
    return redirect("accounts:profile", username)


def _act(action, done):
    @login_required
    @require_POST
    def view(request: HttpRequest, username: str) -> HttpResponse:
        other = _player(username)
        try:
            action(_me(request), other)
            messages.success(request, str(done) % {"name": other.username})
        except (services.SocialError, ValueError) as exc:
            messages.error(request, str(exc))
        return _back(request, username)
    return view


# Module-level sentences: marked here, translated when the message is sent.
follow = _act(services.follow, gettext_lazy("You follow %(name)s."))
unfollow = _act(services.unfollow, gettext_lazy("You no longer follow %(name)s."))
block = _act(blocks.block, gettext_lazy("You blocked %(name)s: you will not meet again."))
unblock = _act(blocks.unblock, gettext_lazy("You unblocked %(name)s."))


@login_required
def blocked_list(request: HttpRequest) -> HttpResponse:
    """Blocked and muted players, each with its undo."""
    if request.method == "POST" and request.POST.get("unmute", "").isdigit():
        ChatMute.objects.filter(reader=_me(request), muted_id=int(request.POST["unmute"])).delete()
        messages.success(request, _("Unmuted."))
        return redirect("social:blocked")
    blocked = get_user_model().objects.filter(blocked_by__blocker=_me(request)).order_by("username")
    muted = ChatMute.objects.filter(reader=_me(request)).select_related("muted").order_by("muted__username")
    return render(request, "social/blocked.html", {"blocked": blocked, "muted": muted})


# --- Challenges ----------------------------------------------------------------------------

@login_required
def challenges(request: HttpRequest) -> HttpResponse:
    received = (Invite.objects.filter(user=_me(request), challenge__status=Challenge.Status.OPEN)
                .select_related("challenge__sender").prefetch_related("challenge__invites__user"))
    sent = (Challenge.objects.filter(sender=_me(request)).select_related("game")
            .prefetch_related("invites__user")[:30])
    recent = (Game.objects.filter(seats__user=_me(request), status=Game.Status.FINISHED, players__gte=2)
              .defer("state").prefetch_related("seats__user").order_by("-finished_at")[:5])
    return render(request, "social/challenges.html", {"received": received, "sent": sent, "recent": recent})


def _initial(request: HttpRequest) -> tuple[dict, Game | None]:
    """Pre-filled from ?to=name (a profile) or ?game=id (play again with these players)."""
    initial: dict = {}
    if request.GET.get("to"):
        initial["invitees"] = request.GET["to"][:150]
    after = None
    if request.GET.get("game", "").isdigit():
        after = Game.objects.filter(pk=request.GET["game"]).prefetch_related("seats__user").first()
    if after is not None and after.seat_of(_me(request)) is not None:
        others = [s.user.username for s in after.ordered_seats() if s.user and s.user != _me(request)]
        initial.update(invitees=", ".join(others), game_slug=after.game_slug, seats=after.players, pace=after.pace,
                       days_per_move=after.days_per_move, clock_minutes=after.clock_minutes,
                       clock_increment=after.clock_increment, rated=after.is_rated)
    else:
        after = None
    return initial, after


@login_required
def new_challenge(request: HttpRequest) -> HttpResponse:
    initial, after = _initial(request)
    form = ChallengeForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.create_challenge(_me(request), form.cleaned_data["invitees"], form.terms(), after_game=after)
            messages.success(request, _("Challenge sent."))
            return redirect("social:challenges")
        except services.SocialError as exc:
            form.add_error(None, str(exc))
    return render(request, "social/new_challenge.html", {"form": form}, status=400 if form.errors else 200)


def _answer(action):
    @login_required
    @require_POST
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        try:
            challenge = action(pk, _me(request))
        except services.SocialError as exc:
            messages.error(request, str(exc))
            return redirect("social:challenges")
        if challenge.game is not None:
            return redirect(challenge.game.get_absolute_url())
        return redirect("social:challenges")
    return view


accept = _answer(services.accept)
decline = _answer(services.decline)


@login_required
@require_POST
def cancel(request: HttpRequest, pk: int) -> HttpResponse:
    services.cancel(pk, _me(request))
    return redirect("social:challenges")


# --- Quick pairing ---------------------------------------------------------------------------

@login_required
def play_now(request: HttpRequest) -> HttpResponse:
    form = SeekForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        mine = services.seek(_me(request), form.terms())
        return redirect(mine.game.get_absolute_url() if mine.game is not None else mine_url(mine))
    waiting = Seek.objects.filter(user=_me(request), status=Seek.Status.WAITING)
    return render(request, "social/play_now.html", {"form": form, "waiting": waiting})


def mine_url(seek: Seek) -> str:
    from django.urls import reverse

    return reverse("social:seek", args=[seek.pk])


@login_required
def seek_wait(request: HttpRequest, pk: int) -> HttpResponse:
    """The waiting page and its poll: present in the pool, paired as soon as possible."""
    mine = get_object_or_404(Seek, pk=pk, user=_me(request))
    if mine.status == Seek.Status.WAITING:
        services.seen(mine)
        services.pair_pool(mine.game_slug, mine.pace, mine.seats)
        mine.refresh_from_db()
    if mine.game is not None:
        if request.headers.get("HX-Request"):
            response = HttpResponse(status=204)
            response["HX-Redirect"] = mine.game.get_absolute_url()
            return response
        return redirect(mine.game.get_absolute_url())
    return render(request, "social/seek.html", {"seek": mine})


@login_required
@require_POST
def cancel_seek(request: HttpRequest, pk: int) -> HttpResponse:
    services.cancel_seek(pk, _me(request))
    messages.success(request, _("You left the pool."))
    return redirect("social:play_now")
