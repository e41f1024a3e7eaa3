"""The inbox, the notification settings, push subscriptions, the installable app's files
(manifest, service worker at the site root, offline page), "next game", and the small
files browsers and crawlers ask for."""
from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.core.exceptions import ImproperlyConfigured
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from config.abuse import limited
from config.http import AuthenticatedHttpRequest
from games.models import Game, Seat
from lobby.models import Table

from . import mail, push
from .forms import InviteForm, PreferencesForm, SubscriptionForm
from .kinds import BY_SLUG
from .models import Notification, Preferences, PushSubscription
from .services import send_bells, tell, worded
from .tasks import prune_before

INBOX_PAGE = 50


@login_required
def inbox(request: AuthenticatedHttpRequest) -> HttpResponse:
    lines = Notification.objects.filter(user=request.user, created__gte=prune_before(timezone.now()))
    page = Paginator(lines, INBOX_PAGE).get_page(request.GET.get("page"))
    return render(request, "notifications/inbox.html", {"page": page, "unread": lines.filter(read=False).count(),
                                                        "keep_days": settings.NOTIFICATIONS_KEEP_DAYS})


@login_required
def open_line(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Follow a line to its page, marking it read on the way."""
    line = get_object_or_404(Notification, pk=pk, user=request.user)
    if not line.read:
        Notification.objects.filter(pk=line.pk).update(read=True)
        send_bells({request.user.id})
    safe = url_has_allowed_host_and_scheme(line.url, allowed_hosts=None) and line.url.startswith("/")
    return redirect(line.url if safe else "notifications:inbox")


@login_required
@require_POST
def mark(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Read or unread again (`read=0`)."""
    updated = Notification.objects.filter(pk=pk, user=request.user).update(read=request.POST.get("read") != "0")
    if not updated:
        raise Http404("No such notification.")
    send_bells({request.user.id})
    return redirect(_back(request))


@login_required
@require_POST
def mark_all(request: AuthenticatedHttpRequest) -> HttpResponse:
    Notification.objects.filter(user=request.user, read=False).update(read=True)
    send_bells({request.user.id})
    return redirect(_back(request))


def _back(request: HttpRequest) -> str:
    target = request.POST.get("next", "")
    if target.startswith("/") and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return reverse("notifications:inbox")


@login_required
def settings_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    prefs, _created = Preferences.objects.get_or_create(user=request.user)
    form = PreferencesForm(request.POST or None, user=request.user, prefs=prefs)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Notification settings saved."))
        return redirect("notifications:settings")
    return render(request, "notifications/settings.html", {
        "form": form, "devices": PushSubscription.objects.filter(user=request.user),
        "push_enabled": push.enabled(), "vapid_public_key": settings.VAPID_PUBLIC_KEY})


@login_required
@require_POST
@limited("tables")
def subscribe(request: AuthenticatedHttpRequest) -> JsonResponse:
    """The browser's PushSubscription (JSON), from the settings page or the prompt."""
    if not push.enabled():
        return JsonResponse({"error": _("Push notifications are not set up on this site.")}, status=409)
    form = SubscriptionForm.from_body(request.body)
    if not form.is_valid():
        return JsonResponse({"error": _("That is not a push subscription this site can use."),
                             "fields": form.errors}, status=400)
    data = form.cleaned_data
    subscription, created = PushSubscription.objects.update_or_create(
        endpoint=data["endpoint"], defaults={"user": request.user, "p256dh": data["p256dh"], "auth": data["auth"],
                                             "device": data["device"] or _device_name(request)})
    return JsonResponse({"id": subscription.pk, "created": created}, status=201 if created else 200)


def _device_name(request: HttpRequest) -> str:
    agent = request.headers.get("User-Agent", "")
    browser = next((name for name in ("Edg", "Firefox", "Chrome", "Safari") if name in agent), "")
    browser = "Edge" if browser == "Edg" else browser or _("A browser")
    system = next((name for name in ("Android", "iPhone", "iPad", "Windows", "Mac OS", "Linux") if name in agent), "")
    return _("%(browser)s on %(system)s") % {"browser": browser, "system": system} if system else browser


@login_required
@require_POST
def remove_device(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    deleted, _rows = PushSubscription.objects.filter(pk=pk, user=request.user).delete()
    if deleted:
        messages.success(request, _("That device gets no more push notifications."))
    return redirect("notifications:settings")


@login_required
def next_game(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The game awaiting you with the least time left (no clock: the oldest turn last),
    other than the one you are on; none: your games list."""
    current = request.GET.get("from", "")
    seats = (Seat.objects.filter(user=request.user, game__status=Game.Status.ACTIVE)
             .select_related("game").only("index", "time_left", "running_since", "game__id", "game__waiting_for"))
    if current.isdigit():
        seats = seats.exclude(game_id=int(current))
    waiting = [s for s in seats if s.index in (s.game.waiting_for or [])]
    if not waiting:
        messages.info(request, _("No other game is waiting for your move."))
        return redirect("games:mine")
    best = min(waiting, key=lambda s: (s.deadline is None, s.deadline or timezone.now(), s.game_id))
    return redirect(best.game.get_absolute_url())


@login_required
@require_POST
@limited("tables")
def invite(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    """The host invites a player to an open table: a line in their inbox (and a push)."""
    table = get_object_or_404(Table, pk=table_id, host=request.user, status=Table.Status.OPEN)
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(map(str, form.errors["username"])))
    elif form.cleaned_data["username"] == request.user:
        messages.error(request, _("You are already at your table."))
    else:
        guest = form.cleaned_data["username"]
        url = reverse("lobby:invite", args=[table.invite_token]) if table.is_private else table.get_absolute_url()
        host = request.user.username

        def invitation(uid: int) -> str:
            words = {"host": host, "title": table.title, "pace": table.pace_label()}
            if table.is_private:
                return _("%(host)s invites you to a private table of %(title)s (%(pace)s).") % words
            return _("%(host)s invites you to a table of %(title)s (%(pace)s).") % words
        tell("invitation", worded([guest.pk], invitation, url))
        messages.success(request, _("%(name)s is invited.") % {"name": guest.username})
    return redirect(table.get_absolute_url())


# --- The installable app and what browsers ask for ---------------------------------------

def _shipped(name: str) -> str:
    """The path of a static file this app ships: missing means a broken install."""
    path = finders.find(name)
    if path is None:
        raise ImproperlyConfigured(f"The static file {name} is missing.")
    return path


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """Served from the root so its scope is the whole site (a static URL's scope would be
    /static/...); never cached long, so a new version installs on the next visit."""
    with open(_shipped("notifications/sw.js"), encoding="utf-8") as source:
        body = source.read().replace("__OFFLINE_URL__", reverse("notifications:offline"))
    body = body.replace("__ICON_URL__", static("notifications/icons/icon-192.png"))
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    icon = lambda name, size, purpose: {"src": static(f"notifications/icons/{name}"), "sizes": size,  # noqa: E731
                                        "type": "image/png", "purpose": purpose}
    return JsonResponse({
        "name": _("Switchback: board games live or a move a day"),
        "short_name": settings.SITE_NAME,
        "description": _("Hiking-themed board games to play online, live or by correspondence."),
        "id": "/", "start_url": "/", "scope": "/", "display": "standalone",
        "background_color": "#f7f5ef", "theme_color": THEME_COLOR,
        "icons": [icon("icon-192.png", "192x192", "any"), icon("icon-512.png", "512x512", "any"),
                  icon("maskable-512.png", "512x512", "maskable"),
                  {"src": static("notifications/icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }, content_type="application/manifest+json")


THEME_COLOR = "#2f6b4f"


def offline(request: HttpRequest) -> HttpResponse:
    """What the service worker shows when the network is gone (cached: no private data)."""
    return render(request, "notifications/offline.html")


@require_GET
@cache_control(max_age=86400)
def favicon(request: HttpRequest) -> HttpResponse:
    # Read whole (a few hundred bytes): a FileResponse streams a synchronous iterator, which
    # the ASGI handler warns about on every request.
    with open(_shipped("notifications/icons/favicon.ico"), "rb") as icon:
        return HttpResponse(icon.read(), content_type="image/x-icon")


@require_GET
def robots(request: HttpRequest) -> HttpResponse:
    # The public pages under /accounts/ (profiles, leaderboards, log-in and sign-up) may be
    # indexed; a player's own pages (settings, resets, unsubscribe links) not. Crawlers take
    # the longest matching rule, older ones the first: the Allow lines come first.
    lines = ["User-agent: *", "Allow: /accounts/u/", "Allow: /accounts/leaderboard/", "Allow: /accounts/login/",
             "Allow: /accounts/signup/", "Disallow: /admin/", "Disallow: /accounts/", "Disallow: /notifications/",
             "Disallow: /invite/", "Disallow: /me/", "Disallow: /ws/", "Allow: /"]
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")


@csrf_exempt  # mail clients post the one-click unsubscribe (RFC 8058) without a session
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The mails of notifications.mail, as accounts.views.unsubscribe does for the turn
    mails: no login (the signed token names the user and the kind); a visit (GET) only shows
    a button, since mail scanners open links; the button and the one-click POST take mail
    off that kind in the player's grid, keeping its other channels."""
    from django.contrib.auth import get_user_model

    found = mail.read_unsubscribe_token(token)
    user = get_user_model().objects.filter(pk=found[0]).first() if found else None
    if found is None or user is None:
        return render(request, "notifications/unsubscribe.html", {"invalid": True}, status=400)
    kind = BY_SLUG[found[1]]
    if request.method == "GET":
        return render(request, "notifications/unsubscribe.html", {"kind": kind, "subject": user, "confirm": True})
    mail.stop_mail(user, kind.slug)
    return render(request, "notifications/unsubscribe.html", {"kind": kind, "subject": user})
