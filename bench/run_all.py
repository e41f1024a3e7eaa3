"""`make bench`: the one benchmark table (bench/live.py) on PostgreSQL + Redis.

    DATABASE_URL=postgres://... REDIS_URL=redis://... .venv/bin/python bench/run_all.py [--quick]

The older single-purpose scripts (playouts.py, http_moves.py, ws_fanout.py and each
game's bench_bot.py) still run on their own.
"""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if not os.environ.get("DATABASE_URL", "").startswith("postgres") or not os.environ.get("REDIS_URL"):
    sys.exit("make bench measures the production set-up: set DATABASE_URL=postgres://... and REDIS_URL=redis://...")
sys.exit(subprocess.run([sys.executable, str(ROOT / "bench" / "live.py"), *sys.argv[1:]], cwd=ROOT).returncode)
