"""The settings grid (kind × channel), the tab's sound and the theme; a push subscription
as the browser sends it; an invitation by user name."""
from __future__ import annotations

import json
from urllib.parse import urlparse

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _, pgettext

from .kinds import CHANNELS, KINDS
from .models import THEMES, Preferences, channels_for


def field_name(kind: str, channel: str) -> str:
    return f"{kind}__{channel}"


class PreferencesForm(forms.Form):
    sound = forms.BooleanField(required=False, label=_("Play a short sound and blink the tab title when a game "
                                                        "becomes yours (in an open tab)"))
    theme = forms.ChoiceField(choices=THEMES, label=_("Appearance"))

    def __init__(self, *args, user, prefs: Preferences, **kwargs):
        super().__init__(*args, **kwargs)
        self.user, self.prefs = user, prefs
        self.fields["sound"].initial, self.fields["theme"].initial = prefs.sound, prefs.theme
        for kind in KINDS:
            chosen = channels_for(user, kind.slug, prefs)
            for channel, label in CHANNELS:
                if channel in kind.channels:
                    self.fields[field_name(kind.slug, channel)] = forms.BooleanField(
                        required=False, initial=channel in chosen,
                        label=pgettext("a kind of notification and a channel", "%(kind)s: %(channel)s")
                        % {"kind": kind.label, "channel": label})

    def grid(self) -> list[dict]:
        """Rows for the template: each kind with a cell per channel (a field or None)."""
        return [{"kind": kind, "cells": [self[field_name(kind.slug, c)] if c in kind.channels else None
                                         for c, _ in CHANNELS]} for kind in KINDS]

    def save(self) -> None:
        choices = {}
        for kind in KINDS:
            on = sorted(c for c, _ in CHANNELS if c in kind.channels and self.cleaned_data[field_name(kind.slug, c)])
            if set(on) != set(kind.defaults) or kind.mail_field:
                choices[kind.slug] = on
            if kind.mail_field:  # games.mail reads the user's own field
                setattr(self.user, kind.mail_field, "mail" in on)
        self.prefs.choices, self.prefs.sound, self.prefs.theme = choices, self.cleaned_data["sound"], \
            self.cleaned_data["theme"]
        self.prefs.save()
        self.user.save(update_fields=[k.mail_field for k in KINDS if k.mail_field])


class SubscriptionForm(forms.Form):
    """The JSON of PushSubscription.toJSON(), plus a device name."""

    endpoint = forms.URLField(max_length=1000, assume_scheme="https")
    p256dh = forms.RegexField(r"^[A-Za-z0-9_-]{80,100}={0,2}$", max_length=200)
    auth = forms.RegexField(r"^[A-Za-z0-9_-]{16,30}={0,2}$", max_length=60)
    device = forms.CharField(max_length=120, required=False)

    @classmethod
    def from_body(cls, body: bytes) -> SubscriptionForm:
        try:
            data = json.loads(body or b"{}")
        except (ValueError, UnicodeDecodeError):
            data = {}
        if not isinstance(data, dict):
            data = {}
        keys = data.get("keys")
        if not isinstance(keys, dict):
            keys = {}
        return cls({"endpoint": data.get("endpoint"), "p256dh": keys.get("p256dh"), "auth": keys.get("auth"),
                    "device": str(data.get("device") or "")[:120]})

    def clean_endpoint(self) -> str:
        """The worker will POST to this address: only the push services the site knows
        (settings.PUSH_ENDPOINT_HOSTS), over https, so a made-up endpoint cannot aim the
        worker at an internal address."""
        endpoint = self.cleaned_data["endpoint"]
        if not endpoint_allowed(endpoint):
            raise forms.ValidationError(_("This is not the address of a known push service."))
        return endpoint


def endpoint_allowed(endpoint: str) -> bool:
    url = urlparse(endpoint)
    host = (url.hostname or "").lower()
    if url.scheme != "https" and not (settings.PUSH_ALLOW_HTTP and url.scheme == "http"):
        return False
    return any(host == allowed or host.endswith("." + allowed) for allowed in settings.PUSH_ENDPOINT_HOSTS)


class InviteForm(forms.Form):
    username = forms.CharField(max_length=150, label=_("Invite a player by name"))

    def clean_username(self):
        user = get_user_model().objects.filter(username__iexact=self.cleaned_data["username"].strip(),
                                               is_active=True).first()
        if user is None:
            raise forms.ValidationError(_("There is no player by that name."))
        return user
