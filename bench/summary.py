"""Issue 21's table, gathered from the benchmarks of one `make bench` run.

Each benchmark keeps its figures in the JSON file named by BENCH_SUMMARY (bench/run_all.py
sets it); run_all.py then prints them beside the issue's own figures and its targets.
"""
from __future__ import annotations

import json
import os
from pathlib import Path


def summarize(key: str, value: float | int | str) -> None:
    """Keep one figure (written at once: a run cut short still leaves what it measured)."""
    name = os.environ.get("BENCH_SUMMARY", "")
    if not name:
        return
    path = Path(name)
    figures = json.loads(path.read_text() or "{}") if path.exists() else {}
    figures[key] = value
    path.write_text(json.dumps(figures, indent=1))


def figures(name: str) -> dict:
    path = Path(name)
    return json.loads(path.read_text() or "{}") if path.exists() else {}
