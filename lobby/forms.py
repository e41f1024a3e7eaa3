"""The create-table form: fixed fields plus one field per option of the chosen game.

Option fields come from the ruleset's `default_options()` (their types and defaults) and
the game's presenter (labels and choices); `validate_options()` has the final word.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from django import forms
from django.utils.translation import gettext as _, gettext_lazy

from games import presenters
from games import rules as registry
from games.models import Pace
from games.rules.base import IllegalAction

from .models import CLOCK_PRESETS, DAYS_PER_MOVE_CHOICES

OPTION_PREFIX = "opt_"
RATED_CHOICES = [("rated", gettext_lazy("Rated")), ("casual", gettext_lazy("Casual"))]


def game_choices() -> list[tuple[str, str]]:
    return [(r.slug, r.title) for r in registry.all()]


def option_field(name: str, default, spec: dict) -> forms.Field:
    label = spec.get("label", name.replace("_", " ").capitalize())
    help_text = spec.get("help", "")
    if "choices" in spec:
        coerce: Callable[[Any], Any] = str if isinstance(default, bool) else type(default)
        return forms.TypedChoiceField(label=label, choices=spec["choices"], initial=default, coerce=coerce,
                                      help_text=help_text)
    if isinstance(default, bool):
        return forms.BooleanField(label=label, initial=default, required=False, help_text=help_text)
    if isinstance(default, int):
        return forms.IntegerField(label=label, initial=default, min_value=spec.get("min"),
                                  max_value=spec.get("max"), help_text=help_text)
    return forms.CharField(label=label, initial=default, max_length=200, help_text=help_text)


class TableForm(forms.Form):
    game = forms.ChoiceField(choices=game_choices, label=gettext_lazy("Game"))
    seats = forms.IntegerField(min_value=1, max_value=8, initial=2, label=gettext_lazy("Seats"))
    is_private = forms.BooleanField(required=False,
                                    label=gettext_lazy("Private (only people with the invite link can join)"))
    pace = forms.ChoiceField(choices=Pace.choices, initial=Pace.LIVE, widget=forms.RadioSelect,
                             label=gettext_lazy("Pace"))
    days_per_move = forms.TypedChoiceField(choices=DAYS_PER_MOVE_CHOICES, coerce=int, initial=3, required=False,
                                           label=gettext_lazy("Time per move (correspondence)"),
                                           help_text=gettext_lazy("The full time comes back after each of your moves."))
    clock = forms.ChoiceField(choices=CLOCK_PRESETS, initial="10+1", required=False, label=gettext_lazy("Clock (live)"),
                              help_text=gettext_lazy("Minutes per player + seconds added per move."))
    clock_minutes = forms.IntegerField(min_value=1, max_value=180, required=False,
                                       label=gettext_lazy("Custom clock: minutes"))
    clock_increment = forms.IntegerField(min_value=0, max_value=300, required=False, initial=0,
                                         label=gettext_lazy("Custom clock: seconds added per move"))
    chat_public = forms.BooleanField(required=False, label=gettext_lazy("Spectators may read the chat"))
    min_rating = forms.IntegerField(min_value=0, max_value=3000, required=False,
                                    label=gettext_lazy("Lowest rating that may join"),
                                    help_text=gettext_lazy("Leave empty for anyone. Ratings start at 1000."))
    max_rating = forms.IntegerField(min_value=0, max_value=3000, required=False,
                                    label=gettext_lazy("Highest rating that may join"))
    rated = forms.ChoiceField(choices=RATED_CHOICES, initial="rated", required=False, widget=forms.RadioSelect,
                              label=gettext_lazy("Rated"),
                              help_text=gettext_lazy(
                                  "Rated games change ratings; games with bots and solo games never do."))

    def __init__(self, *args, game_slug: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        slugs = registry.slugs()
        slug = game_slug if game_slug in slugs else (slugs[0] if slugs else "")
        self.ruleset = registry.get(slug) if slug else None
        self.fields["game"].initial = slug
        if self.ruleset is None:
            return
        r = self.ruleset
        seats = cast(forms.IntegerField, self.fields["seats"])
        seats.min_value, seats.max_value = r.min_players, r.max_players
        seats.initial = max(r.min_players, min(2, r.max_players))
        seats.help_text = presenters.players_label(r)
        seats.widget.attrs.update(min=r.min_players, max=r.max_players)
        specs = presenters.option_specs(r.slug)
        for name, default in r.default_options().items():
            self.fields[OPTION_PREFIX + name] = option_field(name, default, specs.get(name, {}))

    def option_field_names(self) -> list[str]:
        return [name for name in self.fields if name.startswith(OPTION_PREFIX)]

    def option_bound_fields(self):
        return [self[name] for name in self.option_field_names()]

    def clean(self):
        super().clean()
        data = self.cleaned_data  # what Form.clean() returns, typed as never None
        if self.ruleset is None or self.errors:
            return data
        if data.get("game") != self.ruleset.slug:
            raise forms.ValidationError(_("Choose the game again: the options belong to another game."))
        if data.get("pace") == Pace.CORRESPONDENCE and not data.get("days_per_move"):
            self.add_error("days_per_move", _("Choose the time per move for a correspondence game."))
        raw = {}
        for name in self.option_field_names():
            value = data.get(name)
            default = self.ruleset.default_options()[name[len(OPTION_PREFIX):]]
            if isinstance(default, bool) and isinstance(value, str):
                value = value == "True"
            raw[name[len(OPTION_PREFIX):]] = value
        try:
            data["options"] = self.ruleset.validate_options(data["seats"], raw)
        except IllegalAction as exc:
            raise forms.ValidationError(exc.message) from None
        if data.get("pace") != Pace.CORRESPONDENCE:
            data["days_per_move"] = None
        data["is_rated"] = data.get("rated") != "casual"
        self._clean_clock(data)
        low, high = data.get("min_rating"), data.get("max_rating")
        if low is not None and high is not None and low > high:
            self.add_error("max_rating", _("The highest rating must not be below the lowest."))
        return data

    def _clean_clock(self, data: dict) -> None:
        """Live games: a preset "M+I", a custom clock, or none; correspondence has none."""
        data.setdefault("clock_increment", 0)
        choice = data.get("clock") or "none"
        if data.get("pace") != Pace.LIVE or choice == "none":
            data["clock_minutes"], data["clock_increment"] = None, 0
        elif choice == "custom":
            if not data.get("clock_minutes"):
                self.add_error("clock_minutes", _("Give the minutes of your custom clock."))
            data["clock_increment"] = data.get("clock_increment") or 0
        else:
            minutes, increment = choice.split("+")
            data["clock_minutes"], data["clock_increment"] = int(minutes), int(increment)
