"""The body gate of `officegym serve`: a client that drips its body holds no one up, a
body that stops coming is a 408, one too large a 413 before it is read, and too many slow
bodies at once a 503. Served by uvicorn over a SQLite file (the world's write lock is
what a dripping body once held); limits are the test's own, so nothing depends on how
fast the machine is: the bystander's write is asserted done while the drip is still open.
"""

from __future__ import annotations

import asyncio
import json
import socket
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import func, select

from officegym.apps.slack.models import Message
from officegym.mcp_wrappers.asgi import build_asgi_app
from officegym.serve_body import BodyGate, BodyLimits
from officegym.web import create_app
from officegym.world import World
from tests.servers import served

ME = "kturner"
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
PATIENT = BodyLimits(idle_seconds=600, total_seconds=600)  # the drip is cut by the test only


def _serve(world: World, limits: BodyLimits) -> Iterator[str]:
    app = create_app(world, persona=ME, config={"SECRET_KEY": "test"})
    with served(build_asgi_app(world, app, body_limits=limits)) as base:
        yield base


@pytest.fixture
def patient(file_world: World) -> Iterator[str]:
    yield from _serve(file_world, PATIENT)


def _open(
    base: str, path: str, length: int, headers: dict[str, str], first: bytes
) -> socket.socket:
    """A raw HTTP/1.1 POST whose headers and first bytes are sent; the rest is up to the test."""
    host, port = urllib.parse.urlsplit(base).netloc.split(":")
    sock = socket.create_connection((host, int(port)), timeout=60)
    lines = [f"POST {path} HTTP/1.1", f"Host: {host}:{port}", f"Content-Length: {length}"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + first)
    return sock


def _answer(sock: socket.socket) -> tuple[int, bytes]:
    """The status and body of the one answer on `sock` (read until the server closes or
    the body's length is in)."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536) or b"\x00"
    head, _, body = data.partition(b"\r\n\r\n")
    fields = dict(line.split(b": ", 1) for line in head.split(b"\r\n")[1:] if b": " in line)
    length = int(fields.get(b"content-length", b"0"))
    while len(body) < length and (chunk := sock.recv(65536)):
        body += chunk
    return int(head.split()[1]), body


def _post_api(base: str, method: str, **params: str) -> dict[str, Any]:
    data = urllib.parse.urlencode(params).encode()
    req = urllib.request.Request(f"{base}/api/{method}", data=data)
    req.add_header("Authorization", f"Bearer xoxp-{ME}")
    with urllib.request.urlopen(req, timeout=60) as answer:
        return json.loads(answer.read())


def _messages(world: World, text: str) -> int:
    with world.session() as s:
        return s.scalar(select(func.count()).where(Message.text == text))


@pytest.mark.parametrize(
    ("path", "headers"),
    [
        ("/slack/c/general/post", FORM),
        ("/api/chat.postMessage", {"Authorization": f"Bearer xoxp-{ME}", **FORM}),
    ],
    ids=["page", "slack-api"],
)
def test_a_dripping_body_holds_up_no_other_writer(
    file_world: World, patient: str, path: str, headers: dict[str, str]
) -> None:
    body = urllib.parse.urlencode({"channel": "general", "text": "dripped in slowly"}).encode()
    drip = _open(patient, path, len(body), headers, body[:5])
    try:
        for i in range(3):  # bystanders write, and are answered, while the drip is open
            assert _post_api(patient, "chat.postMessage", channel="general", text=f"by {i}")["ok"]
            drip.sendall(body[5 + i : 6 + i])
        assert _messages(file_world, "by 2") == 1
        drip.setblocking(False)
        with pytest.raises(BlockingIOError):  # the drip has had no answer: it is still open
            drip.recv(1)
        drip.setblocking(True)
        drip.sendall(body[8:])
        status, _ = _answer(drip)
        assert status in (200, 302) and _messages(file_world, "dripped in slowly") == 1
    finally:
        drip.close()


def test_a_body_that_stops_coming_is_refused_with_408(file_world: World) -> None:
    for base in _serve(file_world, BodyLimits(idle_seconds=0.2, total_seconds=600)):
        auth = {"Authorization": f"Bearer xoxp-{ME}"}
        for first in (b"", b"channel=gen"):  # nothing of the body, or a part of it
            drip = _open(base, "/api/chat.postMessage", 100, auth, first)
            status, answer = _answer(drip)
            drip.close()
            assert status == 408 and json.loads(answer)["error"] == "request_timeout"
        assert _post_api(base, "chat.postMessage", channel="general", text="after")["ok"]


@pytest.mark.parametrize(
    ("path", "kind", "size", "error"),
    [
        ("/api/chat.postMessage", "application/json", 100_000_000, "request_too_large"),
        ("/api/files.upload", "multipart/form-data; boundary=x", 300_000_000, "request_too_large"),
        ("/gsheets/v4/spreadsheets", "application/json", 100_000_000, None),
        ("/bogus/upload", "multipart/form-data; boundary=x", 1_000_000_000, None),
    ],
)
def test_a_body_declared_too_large_is_refused_before_it_is_read(
    patient: str, path: str, kind: str, size: int, error: str | None
) -> None:
    headers = {"Content-Type": kind, "Authorization": f"Bearer xoxp-{ME}"}
    sock = _open(patient, path, size, headers, b"{")
    status, answer = _answer(sock)
    sock.close()
    assert status == 413
    if error is not None:
        assert json.loads(answer)["error"] == error
    if path.startswith("/gsheets"):
        assert json.loads(answer)["error"]["code"] == 413


def test_a_chunked_body_is_refused_once_it_passes_the_cap(patient: str) -> None:
    host, port = urllib.parse.urlsplit(patient).netloc.split(":")
    sock = socket.create_connection((host, int(port)), timeout=60)
    head = "POST /api/chat.postMessage HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
    sock.sendall(f"{head}Authorization: Bearer xoxp-{ME}\r\n\r\n".encode())
    status = None
    try:
        for _ in range(PATIENT.small // 65536 + 2):
            sock.sendall(b"10000\r\n" + b"a" * 65536 + b"\r\n")
        sock.sendall(b"0\r\n\r\n")
    except OSError:  # the server refused and closed while the client still sent
        pass
    status, answer = _answer(sock)
    sock.close()
    assert status == 413 and json.loads(answer)["error"] == "request_too_large"


async def _echo(scope: dict, receive: Any, send: Any) -> None:
    """An ASGI app answering with the body it was given."""
    body, more = b"", True
    while more:
        message = await receive()
        body, more = body + message.get("body", b""), message.get("more_body", False)
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": body})


def _scope(length: int) -> dict[str, Any]:
    headers = [(b"content-length", str(length).encode())]
    return {"type": "http", "method": "POST", "path": "/api/x", "headers": headers}


def test_too_many_slow_bodies_at_once_are_refused_with_503_and_a_slot_frees() -> None:
    async def run() -> list[int]:
        gate = BodyGate(_echo, BodyLimits(concurrent=1, spool_bytes=4))
        slow, sent = asyncio.Queue(), []
        await slow.put({"type": "http.request", "body": b"ab", "more_body": True})

        async def send(message: dict) -> None:
            if message["type"] == "http.response.start":
                sent.append(message["status"])
            else:
                sent.append(message["body"])

        first = asyncio.create_task(gate(_scope(4), slow.get, send))
        while gate.receiving == 0:
            await asyncio.sleep(0)
        other = asyncio.Queue()
        await other.put({"type": "http.request", "body": b"x", "more_body": True})
        await gate(_scope(2), other.get, send)  # no slot: refused, no waiting
        await slow.put({"type": "http.request", "body": b"cd", "more_body": False})
        await first
        whole = asyncio.Queue()
        await whole.put({"type": "http.request", "body": b"in one", "more_body": False})
        await gate(_scope(6), whole.get, send)  # a body that came whole takes no slot
        return sent

    sent = asyncio.run(run())
    assert sent[0] == 503 and sent[2:] == [200, b"abcd", 200, b"in one"]
