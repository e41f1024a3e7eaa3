from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from chat.models import ChatMute
from config.abuse import limited
from config.i18n import supported_language, time_zone_or_default
from config.local_time import local_time_text
from config.http import AuthenticatedHttpRequest
from games import rules as registry
from games.engine import Rejected
from . import stats
from .profile_page import kept_parts, with_profile_stamp
from . import vacation
from .forms import SettingsForm, SignupForm, VacationForm
from .models import INACTIVITY_SIGMA_PER_DAY, PROVISIONAL_SIGMA, Rating, User

LEADERBOARD_PAGE = 50


@limited("signup")
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("lobby:index")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save(commit=False)
        # The player's zone as their browser said (UTC when it said nothing known) and the
        # language the page was shown in; both can be changed in the settings.
        user.time_zone = time_zone_or_default(form.cleaned_data.get("time_zone"))
        user.language = supported_language(translation.get_language()) or ""
        user.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to Switchback, %(name)s! Pick a table or create one.")
                         % {"name": user.username})
        return redirect("lobby:index")
    return render(request, "registration/signup.html", {"form": form})


def profile(request: HttpRequest, username: str) -> HttpResponse:
    """Per game: rating and its history, counts; then games, results and head-to-head (kept
    between visits: accounts.profile_page); the reader's own buttons drawn on each."""
    player = get_object_or_404(with_profile_stamp(User.objects.all()), username=username, is_active=True)
    return render(request, "accounts/profile.html", {"player": player, "kept": kept_parts(player)})


@login_required
def settings_view(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Settings saved."))
        return redirect("accounts:settings")
    return render(request, "accounts/settings.html", {
        "form": form, "vacation_form": VacationForm(), "vacation_days_left": vacation.days_left(request.user),
        "muted": ChatMute.objects.filter(reader=request.user).select_related("muted").order_by("muted__username"),
    })


@login_required
@require_POST
def vacation_view(request: AuthenticatedHttpRequest) -> HttpResponse:
    try:
        if request.POST.get("end"):
            vacation.end(request.user.id)
            messages.success(request, _("Welcome back: your correspondence clocks run again."))
        else:
            form = VacationForm(request.POST)
            if not form.is_valid():
                raise Rejected(_("Give a number of days between 1 and 30."), 400)
            user = vacation.declare(request.user.id, form.cleaned_data["days"])
            assert user.vacation_until is not None  # declare() has just set it
            until = local_time_text(user.vacation_until)  # the player's zone, named; their language's months
            messages.success(request, _("Enjoy! Your correspondence clocks stop until %(until)s.") % {"until": until})
    except Rejected as exc:
        messages.error(request, exc.message)
    return redirect("accounts:settings")


@csrf_exempt  # mail clients post the one-click unsubscribe (RFC 8058) without a session
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """No login: the signed token names the user and the kind of mail. A visit (GET) only
    shows a button: mail scanners and link previews open links, and must not unsubscribe
    anybody. The button and mail clients' one-click (RFC 8058: a POST of
    "List-Unsubscribe=One-Click" to the List-Unsubscribe address) unsubscribe."""
    from games.mail import KINDS, read_unsubscribe_token

    found = read_unsubscribe_token(token)
    user = User.objects.filter(pk=found[0]).first() if found else None
    if found is None or user is None:
        return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=400)
    kind = found[1]
    if request.method == "GET":
        return render(request, "accounts/unsubscribe.html", {"kind": kind, "subject": user, "confirm": True})
    setattr(user, KINDS[kind], False)
    user.save(update_fields=[KINDS[kind]])
    return render(request, "accounts/unsubscribe.html", {"kind": kind, "subject": user})


def leaderboard(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    rulesets = registry.all()
    slug = slug or (rulesets[0].slug if rulesets else "")
    try:
        current = registry.get(slug)
    except KeyError:
        return render(request, "404.html", {"message": _("No such game.")}, status=404)
    page = Paginator(stats.leaderboard(slug), LEADERBOARD_PAGE).get_page(request.GET.get("page"))
    mine = None
    if request.user.is_authenticated:
        mine = Rating.objects.filter(user=request.user, game_slug=slug).first()
    return render(request, "accounts/leaderboard.html", {
        "rulesets": rulesets, "current": current, "page": page, "mine": mine,
        "my_position": stats.position_of(mine) if mine else None,
        "provisional_sigma": PROVISIONAL_SIGMA, "inactivity": INACTIVITY_SIGMA_PER_DAY,
    })
