"""One ASGI application for `officegym serve`: MCP over streamable HTTP beside the web UI.

``/mcp`` serves every app's tools and ``/mcp/<app>`` one app's; everything else
is the Flask application (pages, the Slack API, ``POST /grade``) run as WSGI in
a thread pool. Both read and write the same world database, so a message posted
through MCP is on the page at the next request. MCP calls act as the Flask
app's persona policy lets them (`officegym.personas`): the person of the
request's bearer token, else the default persona; a locked server refuses
everyone else. The MCP endpoints keep the SDK's DNS-rebinding protection when
bound to a loopback address.
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
from starlette.routing import BaseRoute, Mount, Route

from officegym.mcp_wrappers.server import build_server, engine_lock
from officegym.tools import tools_for
from officegym.web import persona_policy
from officegym.world import World

__all__ = ["MCP_PATH", "build_asgi_app", "mcp_paths", "serve"]

MCP_PATH = "/mcp"
LOOPBACK = ("127.0.0.1", "localhost", "::1")

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def mcp_paths() -> dict[str, list[str] | None]:
    """URL path -> apps served there: ``/mcp`` for all, ``/mcp/<app>`` for each app with tools."""
    apps = sorted({t.app for t in tools_for(None)})
    return {MCP_PATH: None, **{f"{MCP_PATH}/{app}": [app] for app in apps}}


def _security(host: str) -> TransportSecuritySettings | None:
    """The SDK's loopback defaults: only local Host and Origin headers are accepted."""
    if host not in LOOPBACK:
        return None
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
        allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
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


def build_asgi_app(
    world: World,
    flask_app: Flask,
    *,
    host: str = "127.0.0.1",
    expose_grading: bool = False,
) -> Starlette:
    """The web UI at ``/`` and MCP servers at `mcp_paths`, under `flask_app`'s persona policy."""
    routes: list[BaseRoute] = []
    managers: list[StreamableHTTPSessionManager] = []
    policy = persona_policy(flask_app)
    for path, apps in mcp_paths().items():
        server = build_server(world, policy, apps, expose_grading=expose_grading)
        manager = StreamableHTTPSessionManager(app=server, security_settings=_security(host))
        managers.append(manager)
        routes.append(Route(path, endpoint=StreamableHTTPASGIApp(manager)))
    wsgi: WSGIApp = flask_app
    if isinstance(world.engine.pool, StaticPool):
        wsgi = _serialized(wsgi, engine_lock(world.engine))
    routes.append(Mount("/", app=WSGIMiddleware(wsgi)))  # type: ignore[arg-type]
    return Starlette(routes=routes, lifespan=_lifespan(managers))


def _lifespan(managers: Sequence[StreamableHTTPSessionManager]) -> Any:
    """Run every MCP session manager for as long as the application runs."""

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            for manager in managers:
                await stack.enter_async_context(manager.run())
            yield

    return lifespan


def serve(app: Starlette, host: str, port: int, *, sock: socket.socket | None = None) -> None:
    """Serve `app` with uvicorn until interrupted (on `sock` if given, else host:port)."""
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[sock] if sock is not None else None)
