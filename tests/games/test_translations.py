"""games.translations: inside a panel render the catalogue is read once per language and
message; the answers are Django's own, in the language active when the scope opened."""
from __future__ import annotations

from django.utils import translation

from games import translations
from games.translations import gettext, ngettext, one_language, pgettext


def django_answers():
    return (translation.gettext("Score card"), translation.pgettext("what happened in a game so far", "History"),
            translation.ngettext("%(points)s point", "%(points)s points", 3))


def ours():
    return (gettext("Score card"), pgettext("what happened in a game so far", "History"),
            ngettext("%(points)s point", "%(points)s points", 3))


def test_each_scope_answers_in_the_language_active_when_it_opened():
    for language in ("de", "en", "de", "it"):
        with translation.override(language):
            expected = django_answers()
            with one_language():
                assert ours() == expected
                assert ours() == expected, "the kept answers"
    with translation.override("de"):
        assert translation.gettext("Score card") != "Score card", "German has its own word (the test means something)"


def test_outside_a_scope_and_for_lazy_messages_django_answers():
    with translation.override("de"):
        assert ours() == django_answers()
        with one_language():
            lazy = translation.gettext_lazy("Score card")
            assert gettext(lazy) == translation.gettext("Score card")
    assert translations._active.get() is None


def test_a_nested_scope_in_another_language_and_back():
    with translation.override("en"), one_language():
        english = gettext("Score card")
        with translation.override("de"), one_language():
            assert gettext("Score card") == translation.gettext("Score card") != english
        assert gettext("Score card") == english
