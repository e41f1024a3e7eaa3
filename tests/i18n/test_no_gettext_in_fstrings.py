"""A translated string inside an f-string's braces is never extracted: xgettext (GNU gettext
0.21, Debian's, which makemessages runs) reads the whole f-string as one literal, so
`f'<b>{_("Resign")}</b>'` left "Resign" out of every catalogue and English on every
translated page. Every module of the site (tests aside) keeps its gettext calls outside
f-strings' braces."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GETTEXT = {"_", "gettext", "pgettext", "ngettext", "npgettext", "gettext_lazy", "pgettext_lazy", "ngettext_lazy",
           "gettext_noop"}


def site_modules():
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if parts[0] in (".venv", "tests", "bench", "node_modules") or "tests" in parts or "migrations" in parts:
            continue
        yield path


def gettext_calls_in_fstrings(tree: ast.AST) -> list[ast.Call]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FormattedValue):
            found += [call for call in ast.walk(node.value)
                      if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in GETTEXT]
    return found


def test_the_check_finds_a_call_in_an_fstring():
    assert gettext_calls_in_fstrings(ast.parse("""x = f'<b>{_("Resign")}</b>'"""))
    assert not gettext_calls_in_fstrings(ast.parse("""x = '<b>' + _("Resign") + f'</b>{y}'"""))


def test_no_module_translates_inside_an_fstring():
    offenders = [f"{path.relative_to(ROOT)}:{call.lineno}: {ast.unparse(call)[:70]}"
                 for path in site_modules()
                 for call in gettext_calls_in_fstrings(ast.parse(path.read_text(), str(path)))]
    assert not offenders, "gettext calls xgettext cannot see:\n" + "\n".join(offenders)
