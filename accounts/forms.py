from django import forms
from django.contrib.auth.forms import UserCreationForm

from .models import User


class SignupForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text="Optional: for password resets and turn reminders.")

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class SettingsForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("email", "email_turn_notifications", "email_reminders", "email_digest")
        labels = {"email_turn_notifications": "“Your turn” e-mails",
                  "email_reminders": "Reminders before time runs out",
                  "email_digest": "A daily digest"}


class VacationForm(forms.Form):
    days = forms.IntegerField(min_value=1, max_value=30, label="Days away",
                              help_text="Your correspondence clocks stop meanwhile (live games are not affected).")
