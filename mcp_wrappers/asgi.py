"""One ASGI application for `officegym serve`: MCP over streamable HTTP beside the web UI.

``/mcp`` serves every app's tools and ``/mcp/<app>`` one app's; everything else
is the Flask application (pages, the Slack API, and ``POST /grade`` if it exposes
grading) run as WSGI in a thread pool. Both read and write the same world
database, so a message posted through MCP is on the page at the next request.
MCP calls act as the Flask app's persona policy lets them (`officegym.personas`):
the person of the request's bearer token, else the default persona; a locked
server refuses everyone else. The MCP grading tool is served where the Flask app
grades over HTTP, and nowhere else.

The MCP endpoints keep the SDK's DNS-rebinding protection on every address,
with the Host names the web app answers too (`officegym.hosts`): a loopback
address, the bound host (for a wildcard bind, this machine's names and
addresses) or an `allowed_hosts` entry. Nothing here authenticates anyone: bind
a non-loopback address only on a network you trust.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import uvicorn
from a2wsgi import WSGIMiddleware
from flask import Flask
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from sqlalchemy.pool import StaticPool
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Mount, Route

from officegym.hosts import host_names
from officegym.mcp_wrappers.server import build_server, engine_lock
from officegym.serve_body import BodyGate, BodyLimits
from officegym.tools import tools_for
from officegym.web import grading_exposed, persona_policy
from officegym.world import World

__all__ = ["MCP_PATH", "build_asgi_app", "mcp_paths", "serve"]

MCP_PATH = "/mcp"
SESSION_IDLE_TIMEOUT = 1800.0  # seconds an MCP session may sit unused before it is released

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def mcp_paths() -> dict[str, list[str] | None]:
    """URL path -> apps served there: ``/mcp`` for all, ``/mcp/<app>`` for each app with tools."""
    apps = sorted({t.app for t in tools_for(None)})
    return {MCP_PATH: None, **{f"{MCP_PATH}/{app}": [app] for app in apps}}


def _security(names: Iterable[str]) -> TransportSecuritySettings:
    """DNS-rebinding protection: only Host and Origin headers naming one of `names` pass."""
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[p for n in names for p in (n, f"{n}:*")],
        allowed_origins=[
            p for n in names for s in ("http", "https") for p in (f"{s}://{n}", f"{s}://{n}:*")
        ],
    )


def _serialized(app: WSGIApp, lock: threading.Lock) -> WSGIApp:
    """`app` run one request at a time under `lock` (an in-memory world is one connection)."""

    def serialized(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        with lock:
            body = app(environ, start_response)
            try:
                return [b"".join(body)]
            finally:
                close = getattr(body, "close", None)
                if close is not None:
                    close()

    return serialized


# The most of a request body a page that did not read it is read to its end: an answer
# sent while the client still sends would reach it as a reset (Connection: close), not
# as the answer. Beyond this (twice the largest file any app keeps) the connection closes.
DRAIN_BYTES = 20_000_000


def _drained(app: WSGIApp) -> WSGIApp:
    """`app`, with what it left unread of the request body read and dropped (up to
    `DRAIN_BYTES`) before its answer is sent."""

    def drained(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        body = app(environ, start_response)
        stream, left = environ["wsgi.input"], DRAIN_BYTES
        while left > 0 and (chunk := stream.read(min(left, 65536))):
            left -= len(chunk)
        return body

    return drained


def build_asgi_app(
    world: World,
    flask_app: Flask,
    *,
    host: str = "127.0.0.1",
    allowed_hosts: Sequence[str] = (),
    expose_grading: bool | None = None,
    stateless: bool = False,
    session_idle_timeout: float = SESSION_IDLE_TIMEOUT,
    body_limits: BodyLimits | None = None,
) -> Starlette:
    """The web UI at ``/`` and MCP servers at `mcp_paths`, under `flask_app`'s persona policy.

    MCP accepts requests whose Host names a loopback address, `host` or `allowed_hosts`;
    it serves the grading tool if `expose_grading` (by default: if `flask_app` grades).
    `stateless` MCP keeps no session between requests, so any of several worker
    processes can answer any request (``officegym serve --workers N``); otherwise a
    session no request touched for `session_idle_timeout` seconds is released (a client
    that vanished without a DELETE holds no memory or task for ever).

    Every request's body is read whole, within `body_limits` (`officegym.serve_body`),
    before any door sees it: a slow or huge body never holds a thread or the world's
    write lock."""
    routes: list[BaseRoute] = []
    managers: list[StreamableHTTPSessionManager] = []
    policy = persona_policy(flask_app)
    grading = grading_exposed(flask_app) if expose_grading is None else expose_grading
    security = _security(host_names(host, allowed_hosts))
    for path, apps in mcp_paths().items():
        server = build_server(world, policy, apps, expose_grading=grading)
        manager = StreamableHTTPSessionManager(
            app=server, security_settings=security, stateless=stateless,
            session_idle_timeout=None if stateless else session_idle_timeout,
        )  # fmt: skip
        managers.append(manager)
        routes.append(Route(path, endpoint=StreamableHTTPASGIApp(manager)))
    wsgi: WSGIApp = _drained(flask_app)
    if isinstance(world.engine.pool, StaticPool):
        wsgi = _serialized(wsgi, engine_lock(world.engine))
    routes.append(Mount("/", app=WSGIMiddleware(wsgi)))  # type: ignore[arg-type]
    gate = Middleware(BodyGate, limits=body_limits or BodyLimits())
    return Starlette(routes=routes, middleware=[gate], lifespan=_lifespan(managers))


def _lifespan(managers: Sequence[StreamableHTTPSessionManager]) -> Any:
    """Run every MCP session manager for as long as the application runs."""

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            for manager in managers:
                await stack.enter_async_context(manager.run())
            yield

    return lifespan


# Idle keep-alive connections stay open this long (uvicorn's default is 5 s): clients
# such as Google's API client reuse a connection after an agent's pause for thought and
# fail with a broken pipe when the server has closed it. Production front ends keep
# 60-120 s; load balancers expect the server to outlast their own 60 s.
KEEP_ALIVE_SECONDS = 90
# Connections and requests one process holds at once; beyond, uvicorn answers 503 at once
# rather than queueing without end (slow bodies are bounded further by the body gate).
MAX_CONCURRENCY = 1000


def server_config(app: Any, host: str, port: int, *, access_log: bool = False) -> uvicorn.Config:
    """How `officegym serve` runs uvicorn (one process); with `access_log`, one line per
    request, else warnings only."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="info" if access_log else "warning",
        access_log=access_log,
        lifespan="on",
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        limit_concurrency=MAX_CONCURRENCY,
    )


def serve(
    app: Starlette,
    host: str,
    port: int,
    *,
    sock: socket.socket | None = None,
    access_log: bool = False,
) -> None:
    """Serve `app` with uvicorn until interrupted (on `sock` if given, else host:port)."""
    config = server_config(app, host, port, access_log=access_log)
    uvicorn.Server(config).run(sockets=[sock] if sock is not None else None)
