"""Every benchmark in one go (`make bench`)."""
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for script in ["playouts.py", "http_moves.py", "ws_fanout.py", *sorted(p.name for p in HERE.glob("bot_*.py"))]:
    print(f"\n== {script}", flush=True)
    subprocess.run([sys.executable, str(HERE / script)], check=False, cwd=HERE.parent)
