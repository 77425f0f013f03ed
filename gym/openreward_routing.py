"""Open Reward clients routed by the environment name they ask for.

The SDK's ``environments.get(name, base_url=URL)`` sends `name` only in each request's
``X-Deployment`` header and calls bare paths (``/splits``, ``/tasks``...), which the
SDK's own server sends to its first environment: on a server of several envs every name
reached the first, and an unknown name too. `RouteByName`, in front of that server,
prefixes a bare path with the named environment, names it in ``/create``'s body when the
client did not, and answers an unknown name with 404 listing the served ones. Requests
without the header (a ``variant=`` path) pass untouched.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["RouteByName"]

# The SDK server's paths that name no environment (openreward.environments.server).
ROOT_PATHS = frozenset(
    {"health", "version", "ping", "list_environments", "create", "delete"}
    | {"create_session", "delete_session"}
)


class RouteByName:
    """ASGI middleware: route each request to the environment its header names."""

    def __init__(self, app: ASGIApp, names: Iterable[str]) -> None:
        self.app = app
        self.names = {n.lower(): n for n in names}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        asked = _header(scope, b"x-deployment") if scope["type"] == "http" else ""
        if not asked or "/" in asked:  # no name, or a hosted "owner/name": not ours to route
            await self.app(scope, receive, send)
            return
        name = asked.lower()
        if name not in self.names:
            served = ", ".join(self.names.values())
            detail = f"unknown environment {asked!r}; this server has: {served}"
            await JSONResponse({"detail": detail}, status_code=404)(scope, receive, send)
            return
        first = scope["path"].strip("/").split("/", 1)[0].lower()
        if first not in ROOT_PATHS and first not in self.names:
            path = f"/{name}{scope['path']}"
            scope = {**scope, "path": path, "raw_path": path.encode()}
        elif first == "create":
            receive = await _naming(receive, name)
        await self.app(scope, receive, send)


def _header(scope: Scope, key: bytes) -> str:
    return next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k == key), "")


async def _naming(receive: Receive, name: str) -> Receive:
    """`receive` replaying a JSON body with ``env_name`` set to `name` when it had none."""
    chunks, more = [], True
    while more:
        message = await receive()
        chunks.append(message.get("body", b""))
        more = message.get("more_body", False)
    raw = b"".join(chunks)
    try:
        data = json.loads(raw or b"{}")
    except ValueError:
        data = None  # not ours to judge: the server answers its own error
    if isinstance(data, dict) and not data.get("env_name"):
        raw = json.dumps({**data, "env_name": name}).encode()
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()  # the client's disconnect, when it comes
        sent = True
        return {"type": "http.request", "body": raw, "more_body": False}

    return replay
