"""Django's own texts that the sign-up, log-in and password pages show, worded here in the
site's voice: Django's Dutch addresses people formally ("u", "uw"), the site says "je".

Nothing imports this module: makemessages finds these msgids here, so they are in the
accounts catalogue, and accounts (installed before django.contrib.auth) wins over Django's
own translation of the same msgid.
"""
from django.utils.translation import gettext_noop, ngettext_lazy

DJANGO_TEXTS = [
    gettext_noop("Your old password was entered incorrectly. Please enter it again."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
    ngettext_lazy("Your password must contain at least %(min_length)d character.",
                  "Your password must contain at least %(min_length)d characters.", "min_length"),
]
