"""The organiser's form: game, format, pace, table size, rounds and the sign-up window.
The game's default options are used (the rules' validate_options checks the table size)."""
from __future__ import annotations

from datetime import timedelta

from django import forms
from django.utils import timezone

from games import rules as registry
from games.models import Pace
from games.rules.base import IllegalAction

from .models import Tournament


class TournamentForm(forms.ModelForm):
    game_slug = forms.ChoiceField(label="Game", choices=lambda: [(r.slug, r.title) for r in registry.all()])
    starts_at = forms.DateTimeField(label="Starts at (UTC)", help_text="Sign-up closes and round 1 starts.",
                                    widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    clock_increment = forms.IntegerField(required=False, min_value=0, max_value=300, initial=0,
                                         label="Seconds added per move (live)")
    arena_minutes = forms.IntegerField(required=False, min_value=10, max_value=360, initial=60,
                                       label="Arena length (minutes)")

    class Meta:
        model = Tournament
        fields = ["name", "format", "game_slug", "players_per_game", "pace", "days_per_move", "clock_minutes",
                  "clock_increment", "rounds", "starts_at", "rated"]

    def clean(self):
        data = super().clean() or {}
        slug, players = data.get("game_slug"), data.get("players_per_game") or 2
        if players < 2:
            self.add_error("players_per_game", "A tournament game seats at least two players.")
        elif slug:
            try:
                data["options"] = registry.get(slug).validate_options(players, {})
            except IllegalAction as exc:
                self.add_error("players_per_game", str(exc))
        if data.get("starts_at") and data["starts_at"] < timezone.now():
            self.add_error("starts_at", "Pick a time in the future.")
        if data.get("format") == Tournament.Format.ARENA:
            data["pace"] = Pace.LIVE
            data["clock_minutes"] = data.get("clock_minutes") or 3
        elif data.get("pace") == Pace.CORRESPONDENCE:
            data["days_per_move"] = data.get("days_per_move") or 3
        data["clock_increment"] = data.get("clock_increment") or 0
        if not 1 <= (data.get("rounds") or 0) <= 20:
            self.add_error("rounds", "Between 1 and 20 rounds.")
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
