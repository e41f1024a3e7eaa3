"""The organiser's form: game, format, pace, table size, rounds and the sign-up window,
and the chosen game's own options (variants), built as the create-table form builds them;
the rules' validate_options has the final word, for the table size too."""
from __future__ import annotations

from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_lazy

from games import presenters
from games import rules as registry
from games.models import Pace
from games.rules.base import IllegalAction

from lobby.forms import OPTION_PREFIX, option_field

from .models import Tournament


class TournamentForm(forms.ModelForm):
    game_slug = forms.ChoiceField(label=gettext_lazy("Game"),
                                  choices=lambda: [(r.slug, r.title) for r in registry.all()])
    starts_at = forms.DateTimeField(label=gettext_lazy("Starts at (your time zone)"),
                                    help_text=gettext_lazy("Sign-up closes and round 1 starts."),
                                    widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    clock_increment = forms.IntegerField(required=False, min_value=0, max_value=300, initial=0,
                                         label=gettext_lazy("Seconds added per move (live)"))
    arena_minutes = forms.IntegerField(required=False, min_value=10, max_value=360, initial=60,
                                       label=gettext_lazy("Arena length (minutes)"))

    class Meta:
        model = Tournament
        fields = ["name", "format", "game_slug", "players_per_game", "pace", "days_per_move", "clock_minutes",
                  "clock_increment", "rounds", "starts_at", "rated"]

    def __init__(self, *args, game_slug: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        slugs = registry.slugs()
        chosen = game_slug or self.data.get("game_slug") or self.initial.get("game_slug")
        self.ruleset = registry.get(chosen if chosen in slugs else slugs[0]) if slugs else None
        if self.ruleset is None:
            return
        self.fields["game_slug"].initial = self.ruleset.slug
        specs = presenters.option_specs(self.ruleset.slug)
        for name, default in self.ruleset.default_options().items():
            field = self.fields[OPTION_PREFIX + name] = option_field(name, default, specs.get(name, {}))
            field.required = False  # left out: the game's default

    def option_values(self, data: dict) -> dict:
        """The game's options as the rules take them (a choice of True/False comes as text)."""
        assert self.ruleset is not None
        values = {}
        for name, default in self.ruleset.default_options().items():
            value = data.get(OPTION_PREFIX + name)
            if value is None or value == "":
                value = default
            values[name] = value == "True" if isinstance(default, bool) and isinstance(value, str) else value
        return values

    def clean(self):
        data = super().clean() or {}
        slug, players = data.get("game_slug"), data.get("players_per_game") or 2
        if players < 2:
            self.add_error("players_per_game", _("A tournament game seats at least two players."))
        elif slug and self.ruleset is not None:
            if slug != self.ruleset.slug:
                raise forms.ValidationError(_("Choose the game again: the options belong to another game."))
            try:
                data["options"] = self.ruleset.validate_options(players, self.option_values(data))
            except IllegalAction as exc:
                self.add_error("players_per_game", str(exc))
        if data.get("starts_at") and data["starts_at"] < timezone.now():
            self.add_error("starts_at", _("Pick a time in the future."))
        if data.get("format") == Tournament.Format.ARENA:
            data["pace"] = Pace.LIVE
            data["clock_minutes"] = data.get("clock_minutes") or 3
        elif data.get("pace") == Pace.CORRESPONDENCE:
            data["days_per_move"] = data.get("days_per_move") or 3
        data["clock_increment"] = data.get("clock_increment") or 0
        if not 1 <= (data.get("rounds") or 0) <= 20:
            self.add_error("rounds", _("Between 1 and 20 rounds."))
        return data

    def save(self, commit=True):
        tournament = super().save(commit=False)
        tournament.options = self.cleaned_data.get("options", {})
        if tournament.format == Tournament.Format.ARENA:
            tournament.pace, tournament.clock_minutes = Pace.LIVE, self.cleaned_data["clock_minutes"]
            minutes = self.cleaned_data.get("arena_minutes") or 60
            tournament.ends_at = tournament.starts_at + timedelta(minutes=minutes)
        if commit:
            tournament.save()
        return tournament
