"""The body gate of `officegym serve`: a request body is read whole, within a size cap
per door and a time limit, before the application sees the request.

Why: the web UI and the native APIs run as WSGI in threads (`a2wsgi`), which read the
body lazily, from inside the request, after the request's database transaction began.
A client that drips its body in slowly would then hold the thread, and on SQLite the
world's write lock, for as long as it drips: every other writer waited, then failed.
A 100 MB body was buffered in memory before any door refused it. uvicorn (the server
`serve` runs) bounds headers and idle connections but neither a body's size nor its
time, and Starlette bounds only multipart parts, so this small ASGI middleware does:

- a declared ``Content-Length`` beyond the door's cap is refused at once (413), and a
  body (chunked or lying about its length) is refused as soon as it passes the cap;
- a body whose next chunk does not come within `BodyLimits.idle_seconds`, or that is
  not complete within `BodyLimits.total_seconds`, is refused (408);
- at most `BodyLimits.concurrent` bodies per process are received over several chunks at
  once (a body that came whole with its headers takes no slot); more are refused (503);
- what is received waits on the event loop (no thread, no transaction), in memory up to
  `BodyLimits.spool_bytes`, beyond that in a temporary file; the application is then
  given it at once.

Refusals close the connection and answer in the door's own format: Slack's
``{"ok": false, "error": …}`` under ``/api``, Google's ``{"error": {…}}`` under
``/gsheets``, JSON-RPC under ``/mcp``, plain text elsewhere.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

__all__ = ["BodyGate", "BodyLimits", "BodyRefused"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CHUNK = 65536
# Doors that take large bodies: the Sheets API and MCP take CSV text up to the Sheets
# file limit (10 MB); any multipart upload (files up to 10 MB).
LARGE_DOORS = ("/gsheets", "/mcp")


@dataclass(frozen=True)
class BodyLimits:
    """How large and how slow a request body may be (per worker process)."""

    small: int = 1_000_000  # a form or JSON body to a page, the Slack API or /grade
    large: int = 12_000_000  # an upload (multipart), any body to the Sheets API or MCP
    idle_seconds: float = 10.0  # the longest wait for a body's next chunk
    total_seconds: float = 60.0  # the longest a whole body may take to arrive
    concurrent: int = 64  # bodies received over several chunks at once; more: 503
    spool_bytes: int = 1_000_000  # beyond this, a body waits in a temporary file
    drain: int = 20_000_000  # a refused body up to this is read (and dropped) to its end

    def cap(self, scope: Scope) -> int:
        """The most bytes a body to this request's door may hold."""
        path: str = scope.get("path", "")
        if any(path == d or path.startswith(d + "/") for d in LARGE_DOORS):
            return self.large
        content_type = _header(scope, b"content-type") or ""
        return self.large if content_type.startswith("multipart/") else self.small


class BodyRefused(Exception):
    """A body the gate does not pass on: its HTTP status and Slack-style error code."""

    def __init__(self, status: int, code: str, message: str, *, more: bool = False) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.more = more  # whether the client was still sending its body


class BodyGate:
    """ASGI middleware: the application sees a request only once its body is all here."""

    def __init__(self, app: ASGIApp, limits: BodyLimits | None = None) -> None:
        self.app = app
        self.limits = limits or BodyLimits()
        self.receiving = 0  # bodies being received over several chunks, now

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _has_body(scope):
            await self.app(scope, receive, send)
            return
        with tempfile.SpooledTemporaryFile(max_size=self.limits.spool_bytes) as body:
            try:
                await self._read(scope, receive, body)
            except BodyRefused as refused:
                if refused.more and refused.status == 413:
                    await self._discard(scope, receive, body.tell())
                await _refuse(scope, send, refused)
                return
            await self.app(scope, _replay(body, receive), send)

    async def _read(self, scope: Scope, receive: Receive, body: Any) -> None:
        """Receive the whole body into `body`; raises `BodyRefused` past a limit."""
        cap = self.limits.cap(scope)
        declared = _content_length(scope)
        if declared is not None and declared > cap:
            raise _too_large(cap)
        limits = self.limits
        try:
            async with asyncio.timeout(limits.total_seconds):
                first = await asyncio.wait_for(receive(), limits.idle_seconds)
                if _take(first, body, cap):
                    await self._read_rest(receive, body, cap)
        except TimeoutError:
            raise BodyRefused(408, "request_timeout", "the request body came too slowly") from None

    async def _discard(self, scope: Scope, receive: Receive, seen: int) -> None:
        """Read and drop the rest of a refused body of at most `limits.drain` bytes, so
        the client, still sending, reads the refusal rather than a reset (a larger body
        is not read: the connection closes)."""
        declared = _content_length(scope)
        if declared is not None and declared > self.limits.drain:
            return
        try:
            async with asyncio.timeout(self.limits.total_seconds):
                more = True
                while more and seen <= self.limits.drain:
                    message = await asyncio.wait_for(receive(), self.limits.idle_seconds)
                    seen += len(message.get("body", b""))
                    more = message["type"] == "http.request" and message.get("more_body", False)
        except TimeoutError:
            return

    async def _read_rest(self, receive: Receive, body: Any, cap: int) -> None:
        """The chunks after the first, each within `idle_seconds`, in a slot of
        `limits.concurrent` (none free: 503)."""
        if self.receiving >= self.limits.concurrent:
            raise BodyRefused(503, "service_unavailable", "too many slow request bodies at once")
        self.receiving += 1
        try:
            while _take(await asyncio.wait_for(receive(), self.limits.idle_seconds), body, cap):
                pass
        finally:
            self.receiving -= 1


def _take(message: Message, body: Any, cap: int) -> bool:
    """Add a received message's bytes to `body`; whether more follow."""
    if message["type"] == "http.disconnect":
        raise BodyRefused(400, "client_disconnected", "the client left before its body came")
    chunk = message.get("body", b"")
    if body.tell() + len(chunk) > cap:
        raise _too_large(cap, more=bool(message.get("more_body", False)))
    body.write(chunk)
    return bool(message.get("more_body", False))


def _too_large(cap: int, *, more: bool = True) -> BodyRefused:
    message = f"the request body is over {cap:,} bytes"
    return BodyRefused(413, "request_too_large", message, more=more)


def _replay(body: Any, receive: Receive) -> Receive:
    """A `receive` giving the spooled body in chunks, then the client's own messages."""
    left = body.seek(0, 2)
    body.seek(0)
    done = False

    async def replayed() -> Message:
        nonlocal done, left
        if done:
            return await receive()
        chunk = body.read(CHUNK)
        left -= len(chunk)
        done = left <= 0
        return {"type": "http.request", "body": chunk, "more_body": not done}

    return replayed


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def _content_length(scope: Scope) -> int | None:
    raw = _header(scope, b"content-length")
    return int(raw) if raw is not None and raw.strip().isdigit() else None


def _has_body(scope: Scope) -> bool:
    """Whether the request announces a body (a length above 0, or chunked)."""
    if _header(scope, b"transfer-encoding") is not None:
        return True
    return bool(_content_length(scope))


async def _refuse(scope: Scope, send: Send, refused: BodyRefused) -> None:
    """Answer `refused` in the door's format and close the connection."""
    path: str = scope.get("path", "")
    if path == "/api" or path.startswith("/api/"):
        payload: Any = {"ok": False, "error": refused.code, "detail": refused.message}
    elif path.startswith("/gsheets"):
        status = {413: "INVALID_ARGUMENT", 408: "DEADLINE_EXCEEDED"}.get(refused.status)
        error = {"code": refused.status, "message": refused.message}
        payload = {"error": error | {"status": status or "UNAVAILABLE"}}
    elif path.startswith("/mcp"):
        error = {"code": -32600, "message": refused.message}
        payload = {"jsonrpc": "2.0", "id": None, "error": error}
    else:
        payload = None
    body = (json.dumps(payload) if payload is not None else refused.message + "\n").encode()
    kind = b"application/json" if payload is not None else b"text/plain; charset=utf-8"
    headers = [(b"content-type", kind), (b"content-length", str(len(body)).encode())]
    headers.append((b"connection", b"close"))
    if refused.status == 503:
        headers.append((b"retry-after", b"1"))
    await send({"type": "http.response.start", "status": refused.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
