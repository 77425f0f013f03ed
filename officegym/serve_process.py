"""`officegym serve` in a child process, for load tests, race tests and kill -9 runs:
a database of its own on a PostgreSQL server (created, then dropped) or a SQLite file,
served until the block ends.

    with served_database(PG, workers=2) as served:
        urllib.request.urlopen(f"{served.base}/healthz")

`Served.kill()` SIGKILLs the whole server (every worker, no clean shutdown) and
`Served.restart()` starts it again on the same database with ``--keep``: what a
crash and a restart do to acknowledged writes.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import create_engine, text

from officegym.loadtest import wait_healthy

__all__ = ["Served", "served_database"]


@dataclass
class Served:
    """A running server: its base URL, database URL (`db` as ``--db`` is given it) and
    process (its group's leader)."""

    base: str
    url: str
    db: str
    port: int
    workers: int
    proc: subprocess.Popen = field(repr=False)

    def start(self, *, keep: bool) -> None:
        officegym = Path(sys.executable).with_name("officegym")
        cmd = [str(officegym), "serve", "--db", self.db, "--port", str(self.port)]
        cmd += ["--workers", str(self.workers)] if self.workers > 1 else []
        cmd += ["--keep"] if keep else []
        log = Path(tempfile.gettempdir()) / f"officegym-serve-{self.port}.log"
        with log.open("wb") as sink:  # a file, never a pipe nobody reads (a full pipe blocks)
            self.proc = subprocess.Popen(
                cmd, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True
            )
        wait_healthy(self.base, self.proc, log=log)

    def kill(self) -> None:
        """SIGKILL every process of the server at once (no shutdown, no flush)."""
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)

    def restart(self) -> None:
        """Serve the same database again, keeping what it holds."""
        self.start(keep=True)

    def stop(self) -> None:
        if self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(30)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def served_database(server: str, *, workers: int = 1) -> Iterator[Served]:
    """Serve a fresh seeded world: `server` is a PostgreSQL URL (a database of its own is
    created on it and dropped at the end) or a SQLite file path (served as it is)."""
    name = f"og_served_{uuid.uuid4().hex[:8]}"
    admin = None
    if "://" in server and not server.startswith("sqlite"):
        admin = create_engine(server, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f"CREATE DATABASE {name}"))
        url = server.rsplit("/", 1)[0] + f"/{name}"
    else:
        url = f"sqlite:///{server}"
    port = free_port()
    db = url if admin is not None else server
    served = Served(f"http://127.0.0.1:{port}", url, db, port, workers, proc=None)  # type: ignore[arg-type]
    try:
        served.start(keep=False)
        yield served
    finally:
        if served.proc is not None:
            served.stop()
        if admin is not None:
            with admin.connect() as conn:
                conn.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))
            admin.dispose()
