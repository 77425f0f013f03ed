"""Many agents on one persistent world: `officegym serve --db postgresql+psycopg://...
--workers 2` under 50 concurrent writers through the Slack API, MCP and the web forms
loses no acknowledged write, stores no duplicate and breaks no invariant, also when a
worker is killed with SIGKILL mid-load (the local PostgreSQL; figures printed)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from officegym import writes
from officegym.loadtest import general_members, run_load, stop_server, verify, wait_healthy
from tests.postgres import scratch_database

pytestmark = [pytest.mark.postgres, pytest.mark.xdist_group("serve-load")]
OFFICEGYM = Path(sys.executable).with_name("officegym")
RACES_END_CLEANLY = hasattr(writes, "insert_new")  # the chat service's race fix (slackapi)


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    with scratch_database("og_load") as url:
        yield url


@pytest.fixture(scope="module")
def server(
    database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, subprocess.Popen]]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    args = [str(OFFICEGYM), "serve", "--db", database, "--workers", "2", "--port", str(port)]
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with log.open("wb") as sink:  # a file, never a pipe nobody reads (a full pipe blocks)
        proc = subprocess.Popen(args, stdout=sink, stderr=subprocess.STDOUT,
                                start_new_session=True)  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, proc, timeout=180, log=log)
        run_load(
            base, database, general_members(), writers=20, seconds=1.0
        )  # fill the workers' caches
        yield base, proc
    finally:
        stop_server(proc)


def _workers(proc: subprocess.Popen) -> list[int]:
    """The pids of the server's worker processes (uvicorn's spawned children)."""
    out = subprocess.run(["pgrep", "-P", str(proc.pid), "-f", "multiprocessing.spawn"],
                         capture_output=True, text=True)  # fmt: skip
    return [int(p) for p in out.stdout.split()]


def _check(database: str, report) -> dict:  # type: ignore[no-untyped-def]
    found = verify(database, report)
    figures = report.figures()
    print(json.dumps({"figures": figures, "verified": {k: v if isinstance(v, int) else len(v)
                                                       for k, v in found.items()}}))  # fmt: skip
    assert found["acknowledged"] >= 10 and found["stored"] >= found["acknowledged"]
    assert found["missing"] == [] and found["duplicates"] == []
    assert found["authors_not_members"] == [] and found["bad_race_channels"] == []
    assert found["reactions_missing"] == []
    counts = report.counts()
    assert counts[("post", "error")] == 0
    # Signed-in browsers stay signed in whichever worker answers (one session secret).
    assert [o.detail for o in report.ops if o.door == "web" and o.outcome == "refused"] == []
    assert {door for door in ("api", "mcp", "web")} <= {o.door for o in report.ops
                                                        if o.outcome == "ok"}  # fmt: skip
    if RACES_END_CLEANLY:
        assert counts[("create", "error")] == counts[("react", "error")] == 0
    assert counts[("create", "ok")] + counts[("create", "refused")] > 0
    return found


def test_fifty_writers_lose_nothing_and_duplicate_nothing(server, database) -> None:  # type: ignore[no-untyped-def]
    base, _ = server
    report = run_load(
        base, database, general_members(), writers=50, seconds=8.0, race_every=3, min_ok=5
    )
    _check(database, report)
    assert report.counts()[("post", "lost")] == 0


def test_a_worker_killed_mid_load_loses_nothing_acknowledged(server, database) -> None:  # type: ignore[no-untyped-def]
    base, proc = server
    before = _workers(proc)
    assert len(before) == 2

    def kill() -> None:
        os.kill(before[0], signal.SIGKILL)

    report = run_load(base, database, general_members(), writers=50, seconds=8.0, race_every=3,
                      min_ok=5, chaos=kill, chaos_at=3.0)  # fmt: skip
    _check(database, report)
    wait_healthy(base, proc, timeout=60)
    deadline = time.monotonic() + 120  # uvicorn starts a new worker in the dead one's place
    while len(after := _workers(proc)) < 2 and time.monotonic() < deadline:
        time.sleep(0.5)
    assert before[0] not in after and len(after) == 2
