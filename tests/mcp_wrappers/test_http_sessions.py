"""MCP sessions over streamable HTTP that their client abandons (no DELETE, no further
request) are released after the idle timeout: the server then answers the stale session
id with 404, as the protocol says for a session that ended."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

from officegym.mcp_wrappers.asgi import SESSION_IDLE_TIMEOUT, build_asgi_app
from officegym.web import create_app
from officegym.world import World, world_image
from tests.servers import served

HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "abandoner", "version": "0"}}}  # fmt: skip


def post(url: str, body: dict, session: str | None = None) -> tuple[int, str | None]:
    """POST a JSON-RPC message: the status and the session id the answer names."""
    headers = HEADERS | ({"mcp-session-id": session} if session else {})
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            answer.read()
            return answer.status, answer.headers.get("mcp-session-id")
    except urllib.error.HTTPError as exc:
        return exc.code, None


def test_served_worlds_release_idle_sessions_by_default() -> None:
    assert 0 < SESSION_IDLE_TIMEOUT <= 3600


def test_an_abandoned_session_is_released_after_its_idle_timeout() -> None:
    idle = 0.5
    world = World(world_image("default", 0))
    app = build_asgi_app(world, create_app(world, persona="kturner"), session_idle_timeout=idle)
    ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
    try:
        with served(app) as url:
            status, sid = post(f"{url}/mcp", INIT)
            assert status == 200 and sid
            assert post(f"{url}/mcp", ping, sid)[0] == 200  # alive while used
            for _ in range(10):  # each probe is activity too: wait well past the timeout
                time.sleep(idle * 3)
                status = post(f"{url}/mcp", ping, sid)[0]
                if status != 200:
                    break
            assert status == 404
    finally:
        world.close()
