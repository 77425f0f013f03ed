"""kill -9 mid-load: `officegym serve` on a SQLite file and on PostgreSQL (``--workers 2``)
is SIGKILLed whole a third of the way into a load of Sheets appends and Slack posts,
restarted with ``--keep``, loaded on, killed again and restarted; then every
acknowledged write is looked for (`officegym.killtest`).

    python bench/serve_kill.py [--seconds 9] [--clients 8] [--db sqlite|postgres|both]

Prints, per database, the acknowledged appends and posts, the writes that got no answer,
and what is missing (every list must be empty, every count of problems 0).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

from officegym.killtest import check, general_member, kill_run
from officegym.serve_process import served_database

SERVER = os.environ.get("OFFICEGYM_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def run(db: str, seconds: float, clients: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        target = SERVER if db == "postgres" else str(Path(tmp) / "world.sqlite")
        with served_database(target, workers=2 if db == "postgres" else 1) as served:
            person = general_member(served.url)
            report = kill_run(served, person, clients=clients, seconds=seconds)
            found = check(served, person, report)
    found["appends_not_readable"] = len(found["appends_not_readable"])
    found["posts_missing"] = len(found["posts_missing"])
    found["posts_stored_twice"] = len(found["posts_stored_twice"])
    return {"db": db, **found}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=9.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    args = parser.parse_args()
    for db in ("sqlite", "postgres") if args.db == "both" else (args.db,):
        print(json.dumps(run(db, args.seconds, args.clients)))


if __name__ == "__main__":
    main()
