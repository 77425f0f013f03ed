"""PostgreSQL serving under load: `officegym serve --db postgresql+psycopg://... --workers 2`
with 50 concurrent writers through the Slack API, MCP and the web forms.

    python bench/serve_load.py [--seconds 15] [--writers 50] [--workers 2] [--kill]

Creates a database of its own on the local server (``$OFFICEGYM_PG``, default
postgresql+psycopg://postgres@127.0.0.1:5432/test), serves it, runs
`officegym.loadtest.run_load`, verifies the database (`verify`) and prints requests/s,
latency percentiles per door and the outcome counts; ``--kill`` SIGKILLs a worker a
third of the way in. A few seconds of load first (``--warmup``) are not counted: the
workers' first requests fill their caches. The database is dropped at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
from collections.abc import Callable

from officegym.loadtest import general_members, run_load, verify
from officegym.serve_process import served_database

SERVER = os.environ.get("OFFICEGYM_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def killer(proc: subprocess.Popen) -> Callable[[], None]:
    """A function that SIGKILLs one of the server's workers."""
    out = subprocess.run(["pgrep", "-P", str(proc.pid), "-f", "multiprocessing.spawn"],
                         capture_output=True, text=True)  # fmt: skip
    victim = int(out.stdout.split()[0])
    return lambda: os.kill(victim, signal.SIGKILL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--writers", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--kill", action="store_true", help="SIGKILL a worker mid-load")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of load not counted")
    args = parser.parse_args()
    with served_database(SERVER, workers=args.workers) as served:
        base, url, proc = served.base, served.url, served.proc
        if args.warmup:  # workers' first requests fill their caches; not what is measured
            run_load(base, url, general_members(), writers=args.writers, seconds=args.warmup)
        chaos = killer(proc) if args.kill else None
        report = run_load(base, url, general_members(), writers=args.writers, seconds=args.seconds,
                          chaos=chaos, chaos_at=args.seconds / 3)  # fmt: skip
        found = verify(url, report)
    print(json.dumps(report.figures(), indent=1))
    print(json.dumps({k: v if isinstance(v, int) else len(v) for k, v in found.items()}))
    print(json.dumps({f"{k}/{o}": n for (k, o), n in sorted(report.counts().items())}))


if __name__ == "__main__":
    main()
