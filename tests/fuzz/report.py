"""Fuzz bookkeeping: the hypothesis profile the suites run under, and a count of what
each fuzz test tried, printed in pytest's terminal summary (so CI logs show "requests
tried, 5xx = 0" without -s).

Profiles: "ci" (default; a few minutes for every fuzz suite together) and "deep"
(HYPOTHESIS_PROFILE=deep, for a long local run). deadline=None: the first example of a
test builds games and pages, which is slow and not what is measured here.
"""
from __future__ import annotations

import os
from collections import defaultdict

from hypothesis import HealthCheck, settings

SUPPRESSED = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large,
              HealthCheck.filter_too_much]
settings.register_profile("ci", max_examples=60, deadline=None, suppress_health_check=SUPPRESSED,
                          derandomize=False, print_blob=True)
settings.register_profile("deep", max_examples=2000, deadline=None, suppress_health_check=SUPPRESSED)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def examples(factor: float) -> settings:
    """The loaded profile's max_examples scaled for a cheap (factor > 1) or costly test."""
    return settings(max_examples=max(5, int(settings.default.max_examples * factor)))


# test name -> {"cases": n, "failures": n, "5xx": n, "leaks": n}
COUNTS: dict[str, dict[str, int]] = defaultdict(lambda: {"cases": 0, "failures": 0, "5xx": 0, "leaks": 0})


def count(test: str, *, failure: bool = False, server_error: bool = False, leak: bool = False) -> None:
    row = COUNTS[test]
    row["cases"] += 1
    row["failures"] += failure
    row["5xx"] += server_error
    row["leaks"] += leak


def pytest_sessionfinish(session):
    """Under pytest-xdist each worker counts its own cases: hand them to the controller."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["fuzz_counts"] = {name: dict(row) for name, row in COUNTS.items()}


def pytest_testnodedown(node, error):
    """The controller adds up what each xdist worker counted (see pytest_sessionfinish)."""
    for name, row in getattr(node, "workeroutput", {}).get("fuzz_counts", {}).items():
        for key, value in row.items():
            COUNTS[name][key] += value


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not COUNTS:
        return
    terminalreporter.section("fuzz counts")
    width = max(len(name) for name in COUNTS)
    terminalreporter.write_line(f"{'test'.ljust(width)}  {'cases':>7}  {'failures':>8}  {'5xx':>4}  {'leaks':>5}")
    for name, row in sorted(COUNTS.items()):
        terminalreporter.write_line(f"{name.ljust(width)}  {row['cases']:>7}  {row['failures']:>8}  "
                                    f"{row['5xx']:>4}  {row['leaks']:>5}")
    total = sum(row["cases"] for row in COUNTS.values())
    errors = sum(row["5xx"] for row in COUNTS.values())
    terminalreporter.write_line(f"fuzz total: {total} cases tried, 5xx = {errors}")
