"""A bounded load test of a served world: many concurrent writers through the Slack API,
MCP over streamable HTTP and the web forms, then a check of the database.

`run_load` starts `writers` writers for `seconds`; writer ``i`` uses door
``("api", "mcp", "web")[i % 3]`` as person ``people[i % len(people)]`` and mostly posts
messages with a unique marker text to a channel; every ``race_every``-th operation of
an API or MCP writer instead races the others, creating one of a few shared channel
names or adding the same reaction to one shared message. Each operation is classified
as ``ok`` (acknowledged), ``refused`` (a clean domain error, e.g. ``name_taken``,
``already_reacted``), ``error`` (an HTTP 500 or an ``internal_error``) or ``lost`` (no
answer: connection reset, a killed worker). `chaos` runs once, `chaos_at` seconds in
(e.g. a ``kill -9`` of a worker).

`verify` then reads the database: every acknowledged post is there exactly once, no
marker is stored twice, every load message's author belongs to its channel, each race
channel exists at most once with its creator as a member, and every acknowledged
reaction is stored. Only loopback addresses are targets.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
import urllib.request
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx2
from sqlalchemy import create_engine, text

__all__ = [
    "LoadReport",
    "Op",
    "general_members",
    "run_load",
    "verify",
    "wait_healthy",
]

DOORS = ("api", "mcp", "web")
RACE_NAMES = 4


@dataclass
class Op:
    """One operation: which door and kind, its outcome, latency and marker (posts)."""

    door: str
    kind: str
    outcome: str
    seconds: float
    marker: str = ""
    person: str = ""
    detail: str = ""
    ended: float = 0.0  # when the answer came, monotonic seconds


@dataclass
class LoadReport:
    """Every operation of a run, its id (the markers' prefix) and wall time."""

    run_id: str
    seconds: float
    ops: list[Op] = field(default_factory=list)
    shared_message: int = 0

    def counts(self) -> Counter[tuple[str, str]]:
        return Counter((o.kind, o.outcome) for o in self.ops)

    def figures(self) -> dict[str, Any]:
        """Requests/s, latency percentiles (ms) per door and overall, outcome counts."""
        done = [o for o in self.ops if o.outcome != "lost"]
        out: dict[str, Any] = {
            "requests": len(self.ops),
            "requests_per_s": round(len(done) / self.seconds, 1),
            "outcomes": dict(Counter(o.outcome for o in self.ops)),
            "latency_ms": _percentiles([o.seconds for o in done]),
        }
        for door in DOORS:
            out[f"latency_ms_{door}"] = _percentiles([o.seconds for o in done if o.door == door])
        return out


def _percentiles(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)

    return {"p50": at(0.50), "p99": at(0.99), "max": round(1000 * ordered[-1], 1)}


def run_load(
    base_url: str,
    db_url: str,
    people: Sequence[str],
    *,
    writers: int = 50,
    seconds: float = 10.0,
    channel: str = "general",
    race_every: int = 8,
    chaos: Callable[[], None] | None = None,
    chaos_at: float = 0.0,
    min_ok: int = 0,
) -> LoadReport:
    """Run the load against `base_url` (a loopback address) serving the database at
    `db_url`, and return every operation. With `min_ok`, writers go on past `seconds`
    (up to four times as long) until every door has that many acknowledged operations,
    so a slow machine still exercises each door."""
    if urlsplit(base_url).hostname not in ("127.0.0.1", "localhost", "::1"):
        raise ValueError(f"load tests only target this machine, not {base_url}")
    report = LoadReport(run_id=uuid.uuid4().hex[:10], seconds=seconds)
    args = (list(people), writers, seconds, channel, race_every, chaos, chaos_at, min_ok)
    return asyncio.run(_run(base_url, db_url, report, *args))


async def _run(
    base: str, db_url: str, report: LoadReport, people: list[str], writers: int,
    seconds: float, channel: str, race_every: int, chaos: Callable[[], None] | None,
    chaos_at: float, min_ok: int,
) -> LoadReport:  # fmt: skip
    marker = f"load-{report.run_id}-shared"
    async with httpx2.AsyncClient(timeout=30) as http:
        shared = await _api(http, base, people[0], "chat.postMessage",
                            {"channel": channel, "text": marker})  # fmt: skip
    report.shared_message = _message_id(db_url, marker)
    start = time.monotonic()
    writer = _Writer(base, channel, report, race_every, (start + seconds, start + 4 * seconds),
                     shared, min_ok)  # fmt: skip
    tasks = [asyncio.create_task(writer.run(i, people[i % len(people)])) for i in range(writers)]
    if chaos is not None:
        await asyncio.sleep(chaos_at)
        await asyncio.to_thread(chaos)
    await asyncio.gather(*tasks)
    report.seconds = time.monotonic() - start
    return report


async def _api(http: httpx2.AsyncClient, base: str, who: str, method: str, data: dict) -> dict:
    headers = {"Authorization": f"Bearer xoxp-{who}"}
    response = await http.post(f"{base}/api/{method}", data=data, headers=headers)
    response.raise_for_status()
    return response.json()


class _Writer:
    """The operations of every writer (state shared by all: the report, the deadline)."""

    def __init__(
        self, base: str, channel: str, report: LoadReport, race_every: int,
        deadlines: tuple[float, float], shared: dict, min_ok: int,
    ) -> None:  # fmt: skip
        self.base, self.channel, self.report = base, channel, report
        self.race_every, self.shared, self.min_ok = race_every, shared, min_ok
        self.deadline, self.hard_deadline = deadlines
        self._seqs: Counter[int] = Counter()
        self._acked: Counter[str] = Counter()

    def over(self) -> bool:
        """Whether to stop: past the deadline with every door acknowledged `min_ok` times,
        or past the hard deadline."""
        now = time.monotonic()
        if now >= self.hard_deadline:
            return True
        return now >= self.deadline and all(self._acked[d] >= self.min_ok for d in DOORS)

    async def run(self, i: int, person: str) -> None:
        """Operate until the deadline; a broken connection is recorded (`lost`) and a new
        one opened (markers are never reused: the lost one may have been stored)."""
        door = DOORS[i % len(DOORS)]
        while not self.over():
            try:
                if door == "mcp":
                    await self._mcp_session(i, person)
                else:
                    async with httpx2.AsyncClient(timeout=30, follow_redirects=False) as http:
                        await self._http_session(http, door, i, person)
            except Exception:
                await asyncio.sleep(0.05)

    def _op(self, door: str, i: int) -> tuple[str, str]:
        """The next operation's kind and its marker (posts) or race key."""
        seq = self._seqs[i]
        self._seqs[i] += 1
        turn = seq + i // len(DOORS)  # writers of a door race at different turns
        if door != "web" and turn % self.race_every == self.race_every - 1:
            race = "create" if (turn // self.race_every) % 2 == 0 else "react"
            return race, f"race-{self.report.run_id}-{turn % RACE_NAMES}"
        return "post", f"load-{self.report.run_id}-w{i}-{seq}"

    async def _timed(self, door: str, kind: str, key: str, person: str, act: Any) -> None:
        began = time.monotonic()
        try:
            outcome, detail = await act
        except Exception as exc:
            outcome, detail = "lost", type(exc).__name__
            end = time.monotonic()
            self.report.ops.append(Op(door, kind, outcome, end - began, key, person, detail, end))
            raise
        end = time.monotonic()
        self.report.ops.append(Op(door, kind, outcome, end - began, key, person, detail, end))
        if outcome == "ok":
            self._acked[door] += 1

    async def _http_session(self, http: httpx2.AsyncClient, door: str, i: int, person: str) -> None:
        if door == "web":
            await http.get(f"{self.base}/login/{person}?next=/slack/")
        while True:  # at least one operation per connection, however slow its setup was
            kind, key = self._op(door, i)
            act = self._web(http, key) if door == "web" else self._api(http, person, kind, key)
            await self._timed(door, kind, key, person, act)
            if self.over():
                return

    async def _web(self, http: httpx2.AsyncClient, marker: str) -> tuple[str, str]:
        r = await http.post(f"{self.base}/slack/c/{self.channel}/post", data={"text": marker})
        if r.status_code >= 500:
            return "error", str(r.status_code)
        where = r.headers.get("location", "")
        if r.status_code in (302, 303) and where.startswith("/slack/c/"):
            return "ok", ""  # back to the channel: posted (a sign-in page would not be)
        return "refused", f"{r.status_code} {where}"

    async def _api(
        self, http: httpx2.AsyncClient, person: str, kind: str, key: str
    ) -> tuple[str, str]:
        if kind == "post":
            method, data = "chat.postMessage", {"channel": self.channel, "text": key}
        elif kind == "create":
            method, data = "conversations.create", {"name": key}
        else:
            method = "reactions.add"
            data = {"channel": self.shared["channel"], "timestamp": self.shared["ts"],
                    "name": "eyes"}  # fmt: skip
        r = await http.post(f"{self.base}/api/{method}", data=data,
                            headers={"Authorization": f"Bearer xoxp-{person}"})  # fmt: skip
        if r.status_code >= 500:
            return "error", str(r.status_code)
        body = r.json()
        return ("ok", "") if body.get("ok") else ("refused", str(body.get("error")))

    async def _mcp_session(self, i: int, person: str) -> None:
        from mcp import ClientSession
        from mcp.client.streamable_http import streamable_http_client

        headers = {"Authorization": f"Bearer xoxp-{person}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=30) as http,
            streamable_http_client(f"{self.base}/mcp/slack", http_client=http) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            while True:
                kind, key = self._op("mcp", i)
                await self._timed("mcp", kind, key, person, self._mcp(session, kind, key))
                if self.over():
                    return

    async def _mcp(self, session: Any, kind: str, key: str) -> tuple[str, str]:
        if kind == "post":
            name, args = "slack_post_message", {"channel": self.channel, "text": key}
        elif kind == "create":
            name, args = "slack_create_channel", {"name": key}
        else:
            name, args = "slack_add_reaction", {"message_id": self.report.shared_message,
                                                "emoji": "eyes"}  # fmt: skip
        result = await session.call_tool(name, args)
        if not result.is_error:
            return "ok", ""
        code = (result.structured_content or {}).get("error", "")
        return ("error" if code == "internal_error" else "refused"), str(code)


def _message_id(db_url: str, marker: str) -> int:
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            query = text("SELECT id FROM slack_message WHERE text = :t")
            return int(conn.execute(query, {"t": marker}).scalar_one())
    finally:
        engine.dispose()


def verify(db_url: str, report: LoadReport) -> dict[str, Any]:
    """What the database holds of the run: missing acknowledged posts, duplicated markers,
    broken invariants (each a list; all empty means the run lost and broke nothing)."""
    acked = {o.marker for o in report.ops if o.kind == "post" and o.outcome == "ok"}
    engine = create_engine(db_url)
    like = f"load-{report.run_id}-w%"
    try:
        with engine.connect() as conn:
            stored = Counter(
                r[0] for r in conn.execute(
                    text("SELECT text FROM slack_message WHERE text LIKE :p"), {"p": like}
                )
            )  # fmt: skip
            outsiders = conn.execute(text(_NOT_MEMBER), {"p": like}).scalars().all()
            races = conn.execute(text(_RACE_CHANNELS), {"p": f"race-{report.run_id}-%"}).all()
            reactors = set(conn.execute(text(_REACTORS), {"m": report.shared_message}).scalars())
    finally:
        engine.dispose()
    acked_reactors = {o.person for o in report.ops if o.kind == "react" and o.outcome == "ok"}
    return {
        "acknowledged": len(acked),
        "stored": sum(stored.values()),
        "missing": sorted(acked - set(stored)),
        "duplicates": sorted(m for m, n in stored.items() if n > 1),
        "authors_not_members": list(outsiders),
        "bad_race_channels": [json.dumps(list(r)) for r in races if r[1] != 1 or r[2] < 1],
        "reactions_missing": sorted(acked_reactors - reactors),
    }


_NOT_MEMBER = """
SELECT m.id FROM slack_message m
WHERE m.text LIKE :p AND NOT EXISTS (
  SELECT 1 FROM slack_membership s WHERE s.channel_id = m.channel_id AND s.person_id = m.user_id)
"""
_RACE_CHANNELS = """
SELECT c.name, count(DISTINCT c.id), count(s.id) FROM slack_channel c
LEFT JOIN slack_membership s ON s.channel_id = c.id AND s.person_id = c.created_by_id
WHERE c.name LIKE :p GROUP BY c.name
"""
_REACTORS = """
SELECT p.handle FROM slack_reaction r JOIN org_person p ON p.id = r.person_id
WHERE r.message_id = :m AND r.emoji = 'eyes'
"""


def general_members(limit: int = 25) -> list[str]:
    """The handles of the first `limit` members of #general in the seeded default world,
    by id: the people a load run writes as."""
    from officegym.world import World, world_image

    world = World(world_image())
    try:
        with world.initial_connection() as conn:
            rows = conn.execute(text(
                "SELECT p.handle FROM org_person p JOIN slack_membership m ON m.person_id = p.id "
                "JOIN slack_channel c ON c.id = m.channel_id WHERE c.name = 'general' ORDER BY p.id"
            ))  # fmt: skip
            return [r[0] for r in rows][:limit]
    finally:
        world.close()


def wait_healthy(
    base: str, proc: subprocess.Popen, *, timeout: float = 300, log: Path | None = None
) -> None:
    """Wait until the `officegym serve` process `proc` answers ``ok`` on ``{base}/healthz``;
    raise if it exits first (with the tail of its `log`, if given) or `timeout` passes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(
                f"serve exited: {log.read_text()[-2000:] if log else proc.returncode}"
            )
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=2) as r:
                if r.read() == b"ok":
                    return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError("serve did not become healthy")
