from typing import cast

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy

from .models import User


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=False, label=gettext_lazy("Email"),
                             help_text=gettext_lazy("Optional: for password resets and turn reminders."))

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


class SettingsForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("email", "email_turn_notifications", "email_reminders", "email_digest")
        labels = {"email_turn_notifications": gettext_lazy("“Your turn” e-mails"),
                  "email_reminders": gettext_lazy("Reminders before time runs out"),
                  "email_digest": gettext_lazy("A daily digest")}


class VacationForm(forms.Form):
    days = forms.IntegerField(min_value=1, max_value=30, label=gettext_lazy("Days away"),
                              help_text=gettext_lazy(
                                  "Your correspondence clocks stop meanwhile (live games are not affected)."))
