"""Challenge and quick-pairing forms: game, seats, pace, clock, rated (the game's default
options; the rules' validate_options checks the seat count)."""
from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _, gettext_lazy

from games import rules as registry
from games.models import Pace
from games.rules.base import IllegalAction

# Quick pairing uses one clock per pace, so a pool is just game, pace and player count.
QUICK_LIVE_CLOCK = (5, 3)
QUICK_DAYS_PER_MOVE = 3


def _games():
    return [(r.slug, r.title) for r in registry.all()]


class TermsForm(forms.Form):
    game_slug = forms.ChoiceField(label=gettext_lazy("Game"), choices=_games)
    seats = forms.IntegerField(min_value=1, max_value=8, initial=2, label=gettext_lazy("Players"))
    pace = forms.ChoiceField(choices=Pace.choices, initial=Pace.LIVE, widget=forms.RadioSelect,
                             label=gettext_lazy("Pace"))

    def clean(self):
        data = super().clean() or {}
        if data.get("game_slug") and data.get("seats"):
            try:
                data["options"] = registry.get(data["game_slug"]).validate_options(data["seats"], {})
            except IllegalAction as exc:
                self.add_error("seats", str(exc))
        return data


class ChallengeForm(TermsForm):
    invitees = forms.CharField(label=gettext_lazy("Players to challenge"), max_length=400,
                               help_text=gettext_lazy("Names separated by commas; free seats are played by bots."))
    days_per_move = forms.IntegerField(min_value=1, max_value=14, initial=3, required=False,
                                       label=gettext_lazy("Days per move (correspondence)"))
    clock_minutes = forms.IntegerField(min_value=1, max_value=180, initial=10, required=False,
                                       label=gettext_lazy("Minutes per player (live)"))
    clock_increment = forms.IntegerField(min_value=0, max_value=300, initial=5, required=False,
                                         label=gettext_lazy("Seconds added per move (live)"))
    rated = forms.BooleanField(required=False, initial=True, label=gettext_lazy("Rated (games with bots never are)"))

    def clean_invitees(self) -> list:
        names = [n.strip() for n in self.cleaned_data["invitees"].split(",") if n.strip()]
        found = {u.username.lower(): u for u in get_user_model().objects.filter(username__in=names)}
        missing = [n for n in names if n.lower() not in found]
        if missing:
            raise forms.ValidationError(_("No player named %(names)s.") % {"names": ", ".join(missing)})
        return list(found.values())

    def terms(self) -> dict:
        data = self.cleaned_data
        live = data["pace"] == Pace.LIVE
        return {"game_slug": data["game_slug"], "options": data["options"], "seats": data["seats"],
                "pace": data["pace"], "rated": data["rated"],
                "days_per_move": None if live else data.get("days_per_move") or 3,
                "clock_minutes": data.get("clock_minutes") if live else None,
                "clock_increment": (data.get("clock_increment") or 0) if live else 0}


class SeekForm(TermsForm):
    def clean_seats(self) -> int:
        if self.cleaned_data["seats"] < 2:
            raise forms.ValidationError(_("Quick pairing seats at least two players."))
        return self.cleaned_data["seats"]

    def terms(self) -> dict:
        data = self.cleaned_data
        live = data["pace"] == Pace.LIVE
        return {"game_slug": data["game_slug"], "options": data["options"], "seats": data["seats"],
                "pace": data["pace"], "rated": True,
                "days_per_move": None if live else QUICK_DAYS_PER_MOVE,
                "clock_minutes": QUICK_LIVE_CLOCK[0] if live else None,
                "clock_increment": QUICK_LIVE_CLOCK[1] if live else 0}
