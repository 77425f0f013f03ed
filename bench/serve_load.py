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
import socket
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, text

from officegym.loadtest import general_members, run_load, stop_server, verify, wait_healthy

SERVER = os.environ.get("OFFICEGYM_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


@contextmanager
def served(workers: int) -> Iterator[tuple[str, str, subprocess.Popen]]:
    """A database of its own on the local server, served by `workers` processes:
    (base URL, database URL, the server process); all dropped at the end."""
    name = f"og_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(SERVER, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    url = SERVER.rsplit("/", 1)[0] + f"/{name}"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    officegym = Path(sys.executable).with_name("officegym")
    cmd = [str(officegym), "serve", "--db", url, "--workers", str(workers), "--port", str(port)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc)
        yield f"http://127.0.0.1:{port}", url, proc
    finally:
        stop_server(proc)
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))
        admin.dispose()


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
    with served(args.workers) as (base, url, proc):
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
