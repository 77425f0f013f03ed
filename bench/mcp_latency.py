"""Per-call latency of the MCP servers, by transport, against calling `ToolRunner` directly.

Medians (wall clock, milliseconds) of the same read calls made: directly on one
runner; through `build_server`'s per-call runner; through the SDK's in-memory
client; over stdio to ``python -m officegym.mcp_wrappers``; over streamable HTTP
to the uvicorn app ``officegym serve`` runs. A shared, busy machine inflates all
of them alike; compare the columns, not the absolute numbers.

    python bench/mcp_latency.py [--calls 300]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable

import anyio
import uvicorn
from mcp import Client, ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from officegym.mcp_wrappers import build_server
from officegym.mcp_wrappers.asgi import build_asgi_app
from officegym.runner import ToolRunner
from officegym.web import create_app
from officegym.world import World, world_image

PERSONA = "kturner"
CALLS = [
    ("slack_get_person", {"person": "mchang"}),
    ("slack_get_channel_info", {"channel": "engineering"}),
    ("slack_read_channel", {"channel": "engineering", "limit": 5}),
]


def median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 2)


def timed(call: Callable[[], object], n: int) -> float:
    samples = []
    for _ in range(n):
        t0 = time.perf_counter()
        call()
        samples.append(time.perf_counter() - t0)
    return median_ms(samples)


async def timed_async(call: Callable[[], Awaitable[object]], n: int) -> float:
    samples = []
    for _ in range(n):
        t0 = time.perf_counter()
        await call()
        samples.append(time.perf_counter() - t0)
    return median_ms(samples)


async def over_session(session: ClientSession, n: int) -> list[float]:
    await session.initialize()
    return [await timed_async(lambda c=c: session.call_tool(*c), n) for c in CALLS]


async def in_memory(world: World, n: int) -> list[float]:
    async with Client(build_server(world, PERSONA, ["slack"])) as client:
        return [await timed_async(lambda c=c: client.call_tool(*c), n) for c in CALLS]


async def stdio(n: int) -> list[float]:
    args = ["-m", "officegym.mcp_wrappers", "--app", "slack", "--persona", PERSONA]
    params = StdioServerParameters(command=sys.executable, args=args, env=dict(os.environ))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        return await over_session(session, n)


async def http(world: World, n: int) -> list[float]:
    app = build_asgi_app(world, create_app(world, persona=PERSONA, lock_persona=True))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not server.started:
        await anyio.sleep(0.05)
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/mcp/slack"
    try:
        async with streamable_http_client(url) as (read, write), ClientSession(read, write) as s:
            return await over_session(s, n)
    finally:
        server.should_exit = True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    n = parser.parse_args().calls
    world = World(world_image("default", 0))
    runner = ToolRunner(world, PERSONA)
    rows = {"direct ToolRunner": [timed(lambda c=c: runner.call(*c), n) for c in CALLS]}
    rows["in-memory client"] = anyio.run(in_memory, world, n)
    rows["stdio"] = anyio.run(stdio, n)
    with tempfile.TemporaryDirectory() as tmp:
        served = World(world_image("default", 0), url=f"sqlite:///{tmp}/w.sqlite")
        rows["streamable HTTP (file world)"] = anyio.run(http, served, n)
        served.close()
    print(f"median ms per call over {n} calls; columns: {', '.join(c[0] for c in CALLS)}")
    for name, values in rows.items():
        print(f"{name:30} " + "  ".join(f"{v:8.2f}" for v in values))


if __name__ == "__main__":
    main()
