"""Many agents on one persistent world: `officegym serve --db postgresql+psycopg://...
--workers 2` under 50 concurrent writers through the Slack API, MCP and the web forms
loses no acknowledged write, stores no duplicate and breaks no invariant, also when a
worker is killed with SIGKILL mid-load (the local PostgreSQL; figures printed)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator

import pytest

from officegym import writes
from officegym.loadtest import general_members, run_load, verify, wait_healthy
from officegym.serve_process import Served, served_database
from tests.postgres import SERVER, server_up

pytestmark = [pytest.mark.postgres, pytest.mark.xdist_group("serve-load")]
RACES_END_CLEANLY = hasattr(writes, "insert_new")  # the chat service's race fix (slackapi)


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    """`officegym serve --workers 2` on a database of its own, its workers' caches filled."""
    if not server_up():
        pytest.skip(f"no PostgreSQL server at {SERVER}")
    with served_database(SERVER, workers=2) as served:
        run_load(served.base, served.url, general_members(), writers=20, seconds=1.0)
        yield served


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


def test_fifty_writers_lose_nothing_and_duplicate_nothing(served: Served) -> None:
    report = run_load(
        served.base, served.url, general_members(), writers=50, seconds=8.0, race_every=3, min_ok=5
    )
    _check(served.url, report)
    assert report.counts()[("post", "lost")] == 0


def test_a_worker_killed_mid_load_loses_nothing_acknowledged(served: Served) -> None:
    base, database, proc = served.base, served.url, served.proc
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
