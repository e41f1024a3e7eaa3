"""What a newcomer meets first: `make run` says where the site is, links follow the port,
and `make test` without chromium stops with one line instead of failing every browser test."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


# Left out of the child's environment: the address variables, and a parent make's flags
# (under `make test BROWSER=0` they would reach the make these tests run).
# make exports the variables of its own command line (`make test BROWSER=0 PYTEST_ARGS=...` in
# .ci/run) to the suite it runs: the makes these tests start must not see them.
NOT_INHERITED = {"SITE_URL", "WEB_PORT", "HOST", "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES",
                 "BROWSER", "PYTEST_ARGS", "CHROMIUM"}


def _environ(**env: str) -> dict[str, str]:
    """This process's environment without NOT_INHERITED, plus `env`."""
    clean = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
    return {**clean, **env}


def _make(*args: str, **env: str) -> subprocess.CompletedProcess:
    """What `make ARGS` would run (-n: nothing runs), its errors and exit code."""
    return subprocess.run(["make", "--no-print-directory", "-n", *args], cwd=ROOT, capture_output=True, text=True,
                          env=_environ(**env))


def _site_url(**env: str) -> str:
    code = "import config.settings as s; print(s.SITE_URL)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env=_environ(**env))
    return out.stdout.strip()


def test_site_url_follows_the_port_when_unset():
    assert _site_url() == "http://127.0.0.1:8000"
    assert _site_url(WEB_PORT="9001") == "http://127.0.0.1:9001"
    assert _site_url(WEB_PORT="9001", HOST="0.0.0.0") == "http://127.0.0.1:9001"
    assert _site_url(WEB_PORT="9001", SITE_URL="https://switchback.example/") == "https://switchback.example"


def test_make_run_banner_shows_the_address_it_serves():
    assert "runs at http://127.0.0.1:9001 " in _make("run", "WEB_PORT=9001").stdout
    assert "runs at http://127.0.0.1:9002 " in _make("run", WEB_PORT="9002", HOST="0.0.0.0").stdout
    assert "runs at http://127.0.0.1:8000 " in _make("run").stdout


def test_make_test_without_chromium_stops_with_one_line_saying_what_to_install():
    # can_install_chromium= plays a machine where apt-get cannot be run (not root).
    result = _make("test", "CHROMIUM=/nonexistent/chromium", "can_install_chromium=")
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "apt-get install chromium" in lines[0] and "BROWSER=0" in lines[0]
    assert "pytest" not in result.stdout


def test_make_test_as_root_installs_chromium_through_apt_get():
    result = _make("browser-deps", "CHROMIUM=/nonexistent/chromium", "can_install_chromium=yes")
    assert result.returncode == 0
    assert "apt-get install -y -q chromium chromium-driver" in result.stdout


def test_browser_0_runs_the_suite_without_the_browser_tests_or_chromium():
    result = _make("test", "BROWSER=0", "CHROMIUM=/nonexistent/chromium", "can_install_chromium=")
    assert result.returncode == 0, result.stderr
    assert '-m "not browser"' in result.stdout
