"""The bot ladder without Django (issue 25): the same table as `manage.py bot_ladder`.

    nice -n 19 .venv/bin/python bench/bot_ladder.py [--quick]

--quick plays 4 games per pairing with level 4-5 at a 0.05 s budget (a smoke run, not a
measurement); the full run plays 40 per pairing at the levels' own budgets (hours on 2 cores).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import rules as registry  # noqa: E402
from games.rules import ladder  # noqa: E402

if __name__ == "__main__":
    quick = "--quick" in sys.argv[1:]
    print("| game | players | pairing (first's share, 95 % Wilson) | games | time |")
    print("| --- | --- | --- | --- | --- |")
    ladder.run(registry.slugs(), games=4 if quick else 40, budget=0.05 if quick else None)
