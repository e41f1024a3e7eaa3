"""The live pushes still on the line when a server process exits are sent (games.deferred:
the line is drained at exit), after the server's event loop has stopped."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A process that hands the line a push whose server loop has stopped, then exits at once.
SCRIPT = """
import asyncio, sys, django
django.setup()
from games import deferred

loop = asyncio.new_event_loop()
loop.close()                                  # the server's loop, stopped by the shutdown

async def push():
    await asyncio.sleep(0.01)
    open(sys.argv[1], "w").write("sent")

deferred.LINE.submit(lambda: deferred.run_coroutine(push, loop))
"""


def test_a_push_left_on_the_line_is_sent_as_the_process_exits(tmp_path):
    sent = tmp_path / "sent"
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(sent)], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, env={"DJANGO_SETTINGS_MODULE": "config.settings", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert sent.read_text() == "sent", done.stderr[-2000:]
    assert "Traceback" not in done.stderr
