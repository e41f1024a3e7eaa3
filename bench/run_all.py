"""Every benchmark in one go (`make bench`): the site's own, then each game's bot."""
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for script in ["playouts.py", "http_moves.py", "ws_fanout.py"]:
    print(f"\n== {script}", flush=True)
    subprocess.run([sys.executable, str(HERE / script)], check=False, cwd=ROOT)
for bench in sorted(ROOT.glob("games/*/bench_bot.py")):
    module = f"games.{bench.parent.name}.bench_bot"
    print(f"\n== {module}", flush=True)
    subprocess.run([sys.executable, "-m", module], check=False, cwd=ROOT)
