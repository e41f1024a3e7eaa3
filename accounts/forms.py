from typing import cast

from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy

from config.i18n import LABELS, in_users_language, time_zones
from .models import User


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=False, label=gettext_lazy("Email"),
                             help_text=gettext_lazy("Optional: for password resets and turn reminders."))
    # The browser's zone, guessed by site.js (Intl); checked in the view (config.i18n), UTC otherwise.
    time_zone = forms.CharField(required=False, widget=forms.HiddenInput(attrs={"data-guess-time-zone": ""}))

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class LoginForm(AuthenticationForm):
    """Django's log-in form with its name's length enforced. Django only sets the field's
    max_length after the field is built (no validator), so a longer name went on to
    authenticate(), and django-axes' record of the failure (a 255-character column) was a
    500 on PostgreSQL. A field error stops the form before authenticate() is called."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = cast(forms.CharField, self.fields["username"])  # Django's UsernameField
        field.validators.append(MaxLengthValidator(field.max_length))


class LocalizedPasswordResetForm(PasswordResetForm):
    """Django's reset mail, written in the account's language and time zone (config.i18n)
    rather than in whatever language the request that asked for it was in."""

    def send_mail(self, subject_template_name, email_template_name, context, from_email, to_email,
                  html_email_template_name=None):
        with in_users_language(context.get("user")):
            super().send_mail(subject_template_name, email_template_name, context, from_email, to_email,
                              html_email_template_name)


class SettingsForm(forms.ModelForm):
    # Blank follows the browser (its Accept-Language, or the header's chooser).
    language = forms.TypedChoiceField(
        required=False, label=LABELS["language"], help_text=LABELS["language_help"],
        choices=[("", LABELS["browser_language"]), *settings.LANGUAGES])
    class Meta:
        model = User
        fields = ("email", "email_turn_notifications", "email_reminders", "email_digest", "language", "time_zone")
        widgets = {"time_zone": forms.Select(choices=[(zone, zone.replace("_", " ")) for zone in time_zones()])}
        labels = {"email_turn_notifications": gettext_lazy("“Your turn” e-mails"),
                  "email_reminders": gettext_lazy("Reminders before time runs out"),
                  "email_digest": gettext_lazy("A daily digest")}


    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].required = False  # a form without it keeps the zone

    def clean_time_zone(self) -> str:
        return self.cleaned_data.get("time_zone") or self.instance.time_zone


class VacationForm(forms.Form):
    days = forms.IntegerField(min_value=1, max_value=30, label=gettext_lazy("Days away"),
                              help_text=gettext_lazy(
                                  "Your correspondence clocks stop meanwhile (live games are not affected)."))
