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
        fields = ("email", "email_turn_notifications")
