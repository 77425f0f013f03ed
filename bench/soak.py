"""A soak of a served world: `officegym serve` (PostgreSQL with two workers by default,
or a SQLite file with one) under mixed personas on every door for a few minutes.

    python bench/soak.py [--seconds 120] [--writers 12] [--readers 12] [--workers 2] [--sqlite]

Writers (`officegym.loadtest.run_load`) post, create channels and react through the
Slack API, MCP and the web forms; readers, at the same time and as other people, read
every app's pages (Slack, CRM, Sheets, Booking), the Slack API's history with
``oldest``/``latest`` windows and the Sheets API. Prints requests, the count of 5xx (and
MCP internal errors), p50/p99 per door, acknowledged vs stored writes (`verify`) and the
server's memory (RSS of every process) before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

import httpx2
from sqlalchemy import create_engine, text

from officegym.loadtest import _percentiles, general_members, run_load, verify
from officegym.serve_process import served_database

SERVER = os.environ.get("OFFICEGYM_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
PAGES = ["/slack/", "/slack/c/general", "/slack/search?q=the", "/crm/", "/sheets/", "/booking/"]


def rss_mb(pid: int) -> float:
    """Resident memory of `pid` and its descendants, MB."""
    out = subprocess.run(["ps", "-o", "pid=,ppid=,rss=", "-A"], capture_output=True, text=True)
    rows = [tuple(map(int, line.split())) for line in out.stdout.splitlines() if line.strip()]
    children, rss = defaultdict(list), {}
    for p, pp, r in rows:
        children[pp].append(p)
        rss[p] = r
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo += children[p]
    return round(total / 1024, 1)


def workbooks(db_url: str) -> list[tuple[int, str]]:
    """(workbook id, its owner's handle) of the world's workbooks."""
    engine = create_engine(db_url)
    with engine.connect() as conn:
        rows = conn.execute(text(
            "SELECT w.id, p.handle FROM sheets_workbook w JOIN org_person p ON p.id = w.owner_id"
            " ORDER BY w.id"
        )).all()  # fmt: skip
    engine.dispose()
    return [(int(i), h) for i, h in rows]


class Readers:
    """Readers on every door until `stop`; every answer's door, status and latency."""

    def __init__(self, base: str, people: list[str], books: list[tuple[int, str]]) -> None:
        self.base, self.people, self.books = base, people, books
        self.seen: list[tuple[str, int, float]] = []
        self.stop = threading.Event()

    async def _get(self, http: httpx2.AsyncClient, door: str, url: str, **kw: object) -> None:
        began = time.monotonic()
        try:
            r = await http.request(kw.pop("method", "GET"), self.base + url, **kw)  # type: ignore[arg-type]
            status = r.status_code
        except Exception:
            status = 0  # no answer
        self.seen.append((door, status, time.monotonic() - began))

    async def _reader(self, i: int) -> None:
        who = self.people[i % len(self.people)]
        auth = {"Authorization": f"Bearer xoxp-{who}"}
        wid, owner = self.books[i % len(self.books)]
        async with httpx2.AsyncClient(timeout=30) as http:
            await http.get(f"{self.base}/login/{who}")
            n = 0
            while not self.stop.is_set():
                n += 1
                await self._get(http, "pages", PAGES[n % len(PAGES)])
                window = {"channel": "C0000001", "oldest": "1", "latest": "99999999999"}
                await self._get(http, "slack_api_read", "/api/conversations.list", method="POST",
                                headers=auth)  # fmt: skip
                await self._get(http, "slack_api_read", "/api/conversations.history",
                                method="POST", data=window, headers=auth)  # fmt: skip
                sheet_auth = {"Authorization": f"Bearer xoxp-{owner}"}
                await self._get(http, "sheets_api", f"/gsheets/v4/spreadsheets/{wid}",
                                headers=sheet_auth)  # fmt: skip
                await self._get(http, "sheets_api",
                                f"/gsheets/v4/spreadsheets/{wid}/values/A1:F30",
                                headers=sheet_auth)  # fmt: skip

    def run(self, n: int) -> None:
        async def main() -> None:
            await asyncio.gather(*(self._reader(i) for i in range(n)))

        asyncio.run(main())


def summary(readers: Readers, report: object) -> dict[str, object]:
    by_door: dict[str, list[float]] = defaultdict(list)
    statuses: Counter[str] = Counter()
    for door, status, secs in readers.seen:
        by_door[door].append(secs)
        statuses[f"{door}:{status // 100}xx" if status else f"{door}:no-answer"] += 1
    for op in report.ops:  # type: ignore[attr-defined]
        by_door[f"{op.door}_write"].append(op.seconds)
        statuses[f"{op.door}_write:{op.outcome}"] += 1
    five = sum(n for k, n in statuses.items() if k.endswith(":5xx") or k.endswith(":error"))
    return {
        "requests": sum(len(v) for v in by_door.values()),
        "5xx_or_internal_error": five,
        "statuses": dict(sorted(statuses.items())),
        "latency_ms": {door: _percentiles(v) for door, v in sorted(by_door.items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--writers", type=int, default=12)
    parser.add_argument("--readers", type=int, default=12)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--sqlite", action="store_true", help="a SQLite file, one worker")
    args = parser.parse_args()
    where = str(Path(tempfile.mkdtemp()) / "soak.sqlite") if args.sqlite else SERVER
    workers = 1 if args.sqlite else args.workers
    people = general_members()
    with served_database(where, workers=workers) as served:
        readers = Readers(served.base, people[::-1], workbooks(served.url))
        before = rss_mb(served.proc.pid)
        thread = threading.Thread(target=readers.run, args=(args.readers,))
        thread.start()
        report = run_load(served.base, served.url, people, writers=args.writers,
                          seconds=args.seconds)  # fmt: skip
        readers.stop.set()
        thread.join(60)
        after = rss_mb(served.proc.pid)
        found = verify(served.url, report)
    out = summary(readers, report)
    out["database"] = "sqlite, 1 worker" if args.sqlite else f"postgresql, {workers} workers"
    out["seconds"] = round(report.seconds, 1)
    out["writes"] = {k: v if isinstance(v, int) else len(v) for k, v in found.items()}
    out["server_rss_mb"] = {"before": before, "after": after}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
