"""`make bench`: the live-layer table (bench/live.py) on PostgreSQL + Redis, then the panel
renders, replay pages and push sizes measured in process (bench/panel_profile.py,
bench/push_bytes.py), and last issue 21's table: each of its rows as measured in this run,
beside the issue's own figure (before) and its target.

    DATABASE_URL=postgres://... REDIS_URL=redis://... .venv/bin/python bench/run_all.py [--quick]

The older single-purpose scripts (playouts.py, http_moves.py, ws_fanout.py and each
game's bench_bot.py) still run on their own; Lighthouse is bench/lighthouse.py.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.summary import figures  # noqa: E402 (the project's root is on the path only now)

GAMES = ("alpine-trails", "nanga-parbat", "rift-valley-reserve", "rifugio", "roll-to-the-top")


def run(script: str, *args: str) -> int:
    return subprocess.run([sys.executable, str(ROOT / "bench" / script), *args], cwd=ROOT).returncode


def fmt(value, unit: str = "x", digits: int = 1) -> str:
    return "not measured" if value is None else f"{value:.{digits}f}{unit}"


def spread(values: list) -> str:
    known = [v for v in values if v is not None]
    return "not measured" if not known else f"{min(known):.1f}-{max(known):.1f}x"


def verdict(ok) -> str:
    return "not measured" if ok is None else ("met" if ok else "NOT met")


def at_most(values: list, limit: float):
    known = [v for v in values if v is not None]
    return None if not known else max(known) <= limit


def every(counted: str | None) -> bool:
    """"9600 of 9600" -> True."""
    if not counted:
        return False
    got, _, wanted = counted.partition(" of ")
    return got == wanted


def panel_rows(f: dict) -> list[tuple]:
    rows = []
    for slug in GAMES:
        phases = [f.get(f"panel_{slug}_{p}") for p in ("0", "7", "40")]
        first = f.get(f"panel_{slug}_end_first")
        kept = f.get(f"panel_{slug}_end")
        now = " / ".join(fmt(v) for v in phases) + f"; end: first {fmt(first)}, kept {fmt(kept)}"
        rows.append((f"panel render ÷ bare, {slug} (start / 7 / 40 moves; end)", now, "≤ 2x",
                     verdict(at_most([*phases, first, kept], 2.0))))
    return rows


def table(f: dict) -> list[tuple]:
    """(measure, issue's figure, this run, target, verdict) for each row of issue 21's table."""
    def g(key):
        return f.get(key)

    rows = [(m, "RVR 16x, Rifugio 6.4x, NP 4.5x, AT 3.3x, RTTT 2.9x (mid-game)", now, t, v)
            for m, now, t, v in panel_rows(f)]
    floor_cpu, floor_bare = g("fanout_1000_floor_cpu_ms"), g("fanout_1000_floor_over_bare")
    replay_cold = [g(f"replay_{s}_last_cold") for s in GAMES]
    replay_cold_other = [g(f"replay_{s}_{w}_cold") for s in GAMES for w in ("first", "middle")]
    replay_repeat = [g(f"replay_{s}_{w}_repeat") for s in GAMES for w in ("first", "middle", "last")]
    sent = [g(f"push_{s}_sent_kb") for s in GAMES]
    rows += [
        ("move -> last of 100 sockets on one game ÷ floor", "5.5x", fmt(g("fanout_100_over_floor")), "≤ 1.5x",
         verdict(at_most([g("fanout_100_over_floor")], 1.5))),
        ("the floor itself, 1,000 sockets on one game: server CPU; p50 ÷ bare", "255 ms; 57x",
         f"{fmt(floor_cpu, ' ms', 0)}; {fmt(floor_bare)}", "halved (≤ 128 ms; ≤ 28x)",
         verdict(None if floor_cpu is None or floor_bare is None else floor_cpu <= 128 and floor_bare <= 28.5)),
        ("move -> last of 1,000 sockets on one game ÷ floor", "(not in the issue)",
         fmt(g("fanout_1000_over_floor")), "", ""),
        ("move -> last of 1,000 sockets over 200 games ÷ floor", "8.2x", fmt(g("fanout_1000_spread_over_floor")),
         "≤ 2x", verdict(at_most([g("fanout_1000_spread_over_floor")], 2.0))),
        ("HTTP move throughput ÷ the move floor, N=50 (N=10)", "0.30",
         f"{fmt(g('http_move_over_floor_n50'), '', 2)} ({fmt(g('http_move_over_floor_n10'), '', 2)})", "≥ 0.7",
         verdict(None if g("http_move_over_floor_n50") is None else g("http_move_over_floor_n50") >= 0.7)),
        ("replay page ÷ bare, repeat (any step)", "8-18x", spread(replay_repeat), "≤ 2x",
         verdict(at_most(replay_repeat, 2.0))),
        ("replay page ÷ bare, cold: the last step (the page a player opens)", "up to 43x", spread(replay_cold),
         "≤ 5x", verdict(at_most(replay_cold, 5.0))),
        ("replay page ÷ bare, cold: the first and middle steps", "up to 43x", spread(replay_cold_other), "≤ 5x",
         verdict(at_most(replay_cold_other, 5.0))),
        ("bytes per move per socket (5 seats, 40 moves; 2 in Nanga Parbat)", "17-240 KB",
         "; ".join(f"{s.split('-')[0]} {fmt(v, ' KB')}" for s, v in zip(GAMES, sent, strict=True)), "a few KB",
         verdict(at_most(sent, 5.0))),
        ("HTML on the wire: a Rift Valley Reserve game page", "176 KB uncompressed",
         f"{fmt(g('wire_page_kb'), ' KB', 0)} sent as {fmt(g('wire_sent_kb'), ' KB')}", "compressed",
         verdict(None if g("wire_sent_kb") is None else g("wire_sent_kb") < g("wire_page_kb") / 3)),
        ("lobby ÷ bare (40 games in play, 300 finished)", "14x", fmt(g("page_lobby_over_bare")), "≤ 5x",
         verdict(at_most([g("page_lobby_over_bare")], 5.0))),
        ("profile ÷ bare (40 games in play, 300 finished)", "16.5x", fmt(g("page_profile_over_bare")), "≤ 5x",
         verdict(at_most([g("page_profile_over_bare")], 5.0))),
        ("idle sockets on one box: held; a move reaching all", "10,000 fail",
         f"{g('idle_held') or 'not run (make bench SOCKETS=10000)'}; {g('idle_reached') or '-'}",
         "10,000 held, all reached", verdict(None if g("idle_held") is None else
                                            every(g("idle_held")) and every(g("idle_reached"))
                                            and f.get("idle_sockets", 0) >= 10_000)),
    ]
    return rows


def print_table(f: dict) -> None:
    print("\nIssue 21's table: before (the issue's figure) and now (this run)")
    print(f"  {'measure':70} {'before':>28}  {'now':>44}  {'target':>22}  verdict")
    for measure, before, now, target, ok in table(f):
        print(f"  {measure:70} {before:>28}  {now:>44}  {target:>22}  {ok}")


def main() -> int:
    if not os.environ.get("DATABASE_URL", "").startswith("postgres") or not os.environ.get("REDIS_URL"):
        sys.exit("make bench measures the production set-up: set DATABASE_URL=postgres://... and REDIS_URL=redis://...")
    with tempfile.NamedTemporaryFile(prefix="bench-summary-", suffix=".json", delete=False) as handle:
        summary = handle.name
    os.environ["BENCH_SUMMARY"] = summary
    try:
        failed = run("live.py", *sys.argv[1:])
        if "--push-floor" in sys.argv or "--idle-only" in sys.argv:
            return failed
        print("\nPanel renders ÷ an in-process bare request (bench/panel_profile.py ratio)", flush=True)
        failed |= run("panel_profile.py", "ratio")
        print("\nReplay pages ÷ an in-process bare request (bench/panel_profile.py replay)", flush=True)
        failed |= run("panel_profile.py", "replay")
        print("\nBytes per move per socket (bench/push_bytes.py)", flush=True)
        failed |= run("push_bytes.py", "20" if "--quick" in sys.argv else "40")
        print_table(figures(summary))
        return failed
    finally:
        Path(summary).unlink(missing_ok=True)


if __name__ == "__main__":
    sys.exit(main())
