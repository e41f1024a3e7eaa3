"""The platform's import layers hold (pyproject.toml's [tool.importlinter], run by `make lint`),
and the two contract types of tests/import_contracts.py catch what they promise to."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_projects_import_contracts_hold():
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-4000:]
    assert "0 broken" in result.stdout


def _lint(tmp_path: Path, files: dict[str, str], contract: str) -> subprocess.CompletedProcess:
    """lint-imports over a throw-away package `tiny` (written from {path: source}) with one
    contract of ours; the project root on PYTHONPATH makes tests.import_contracts importable."""
    for name, source in files.items():
        path = tmp_path / "tiny" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    (tmp_path / "contracts.toml").write_text(textwrap.dedent('''
        [tool.importlinter]
        root_packages = ["tiny"]
        contract_types = [
            "acyclic_modules: tests.import_contracts.AcyclicModulesContract",
            "allowed_imports: tests.import_contracts.AllowedImportsContract",
        ]
        [[tool.importlinter.contracts]]
        name = "the contract under test"
        ''') + textwrap.dedent(contract))
    lint = Path(sys.executable).with_name("lint-imports")
    return subprocess.run([str(lint), "--no-cache", "--config", "contracts.toml"], cwd=tmp_path,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})


CIRCLE = {
    "__init__.py": "",
    "engine.py": "def submit():\n    from tiny import notify\n    notify.send()\n",
    "notify.py": "from tiny.panel import render\n\ndef send():\n    render()\n",
    "panel.py": "from tiny import engine\n\ndef render():\n    return engine\n",
    "views.py": "from tiny import engine\n",
}


def test_a_circle_hidden_in_a_function_level_import_is_reported(tmp_path):
    result = _lint(tmp_path, CIRCLE, 'type = "acyclic_modules"\npackages = ["tiny"]\n')
    assert result.returncode == 1, result.stdout
    assert "3 modules import each other in a circle: tiny.engine, tiny.notify, tiny.panel" in result.stdout
    assert "- tiny.engine -> tiny.notify (l.2)" in result.stdout  # the import inside submit()
    assert "tiny.views" not in result.stdout


def test_an_ignored_import_breaks_the_circle(tmp_path):
    contract = 'type = "acyclic_modules"\npackages = ["tiny"]\nignore_imports = ["tiny.engine -> tiny.notify"]\n'
    result = _lint(tmp_path, CIRCLE, contract)
    assert result.returncode == 0, result.stdout


def test_rules_that_import_the_platform_are_reported(tmp_path):
    files = {
        "__init__.py": "",
        "engine.py": "",
        "rules/__init__.py": "",
        "rules/base.py": "",
        "dice/__init__.py": "",
        "dice/rules/__init__.py": "from tiny.rules.base import *\nfrom . import bot\n",
        "dice/rules/bot.py": "def choose():\n    from tiny import engine\n",
    }
    contract = 'type = "allowed_imports"\nsource_modules = ["tiny.*.rules"]\nallowed_modules = ["tiny.rules.base"]\n'
    result = _lint(tmp_path, files, contract)
    assert result.returncode == 1, result.stdout
    assert "- tiny.dice.rules.bot -> tiny.engine (l.2)" in result.stdout
    assert "tiny.rules.base" not in result.stdout.split("may be imported here:")[1]


def test_each_app_schedules_its_own_periodic_tasks():
    from games.management.commands.schedule_periodic_tasks import periodic_tasks

    paths = {task.module_path for task in periodic_tasks()}
    assert {"lobby.tasks.expire_open_tables", "games.tasks.daily_digest"} <= paths
