"""MCP over streamable HTTP, served by the same ASGI app as the web UI (as `officegym
serve` runs it): the real `ClientSession` lists and calls tools, and what it posts is
on the web page and in the grade at once. Grading is served only when exposed, and
the MCP endpoints refuse foreign Host headers on every bind address."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from sqlalchemy import select

from officegym.apps.org.models import Person
from officegym.apps.slack.models import Message
from officegym.mcp_wrappers.asgi import build_asgi_app, mcp_paths
from officegym.mcp_wrappers.server import GRADE_TOOL
from officegym.tasks import make_task
from officegym.tools import tools_for
from officegym.web import create_app
from officegym.world import World, world_image
from tests.channels import channel_outside, member_of, members_of
from tests.servers import served

pytestmark = pytest.mark.anyio

OFFICEGYM = [sys.executable, "-c", "from officegym.cli import main; main()"]
TASK = make_task("slack.post-channel", 4)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, World, str]]:
    """One served world file for the module, grading exposed: (base URL, world, persona)."""
    db = Path(tmp_path_factory.mktemp("served")) / "world.sqlite"
    world = World(world_image("default", 0), url=f"sqlite:///{db}")
    persona = TASK.persona  # so that the task can be solved over this server
    app = build_asgi_app(world, create_app(world, persona=persona, expose_grading=True))
    with served(app) as url:
        yield url, world, persona
    world.close()


@asynccontextmanager
async def session(url: str, token: str | None = None) -> AsyncIterator[ClientSession]:
    """An initialized MCP client session over streamable HTTP (with a bearer `token`)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with (
        httpx2.AsyncClient(headers=headers) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as s,
    ):
        await s.initialize()
        yield s


async def call(url: str, name: str | None = None, args: dict | None = None) -> tuple[list, Any]:
    """List the tools at `url`, and call one if `name` is given: (tools, result)."""
    async with session(url) as s:
        tools = (await s.list_tools()).tools
        result = await s.call_tool(name, args or {}) if name else None
    return tools, result


def fetch(url: str, data: bytes | None = None, headers: dict | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=data, headers=headers or {})
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    try:
        with opener.open(request, timeout=20) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


@pytest.mark.parametrize("path", list(mcp_paths()))
async def test_each_mcp_path_lists_the_registry_tools(site, path: str) -> None:
    url, _, _ = site
    tools, _ = await call(url + path)
    apps = mcp_paths()[path]
    registry = {t.name: t for t in tools_for(apps)}
    assert {t.name: (t.description, t.input_schema) for t in tools if t.name != GRADE_TOOL} == {
        n: (t.description, t.parameters) for n, t in registry.items()
    }
    assert GRADE_TOOL in {t.name for t in tools}  # the site exposes grading


async def test_a_server_for_an_agent_serves_no_grade(world: World) -> None:
    """Grading is opt-in: by default neither POST /grade nor the MCP tool is there."""
    persona = member_of(world, "general")
    app = build_asgi_app(world, create_app(world, persona=persona, lock_persona=True))
    body = json.dumps({"task": TASK.id, "seed": TASK.seed}).encode()
    with served(app) as url:
        status, reply = fetch(url + "/grade", body, {"Content-Type": "application/json"})
        tools, refused = await call(url + "/mcp", GRADE_TOOL, {"task": TASK.id, "seed": 0})
    assert status == 404 and b"reward" not in reply
    assert GRADE_TOOL not in {t.name for t in tools} and refused.is_error


async def test_a_domain_error_over_http_is_a_tool_error_with_the_message(site) -> None:
    url, world, persona = site
    private = channel_outside(world, persona, "private")
    _, result = await call(url + "/mcp/slack", "slack_read_channel", {"channel": private})
    assert result.is_error
    assert result.content[0].text == f"no channel '{private}' that you can see"


async def test_the_server_survives_malformed_calls_over_http(site) -> None:
    url, _, _ = site
    async with session(url + "/mcp") as s:
        unknown = await s.call_tool("nope_nothing", {})
        wrong = await s.call_tool("slack_read_thread", {"message_id": {"x": 1}})
        fine = await s.call_tool("slack_list_channels", {"member_only": True})
    assert unknown.is_error and wrong.is_error and not fine.is_error


async def test_a_task_solved_over_mcp_is_on_the_web_page_and_graded_at_once(site) -> None:
    url, _, persona = site
    grade_request = json.dumps({"task": TASK.id, "seed": TASK.seed}).encode()
    headers = {"Content-Type": "application/json"}
    before = json.loads(fetch(url + "/grade", grade_request, headers)[1])
    (post,) = TASK.solution
    _, result = await call(url + "/mcp", post.name, post.arguments)
    assert not result.is_error
    status, page = fetch(f"{url}/login/{persona}?next=/slack/c/{post.arguments['channel']}")
    assert status == 200 and post.arguments["text"].encode() in page
    status, after = fetch(url + "/grade", grade_request, headers)
    assert status == 200
    assert (before["reward"], before["passed"]) == (0.0, False)
    assert (json.loads(after)["reward"], json.loads(after)["passed"]) == (1.0, True)


async def test_the_slack_api_is_served_by_the_same_app(site) -> None:
    url, _, persona = site
    status, body = fetch(url + "/api/auth.test", b"", {"Authorization": f"Bearer xoxp-{persona}"})
    assert status == 200 and json.loads(body)["user"] == persona


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"},
    },
}


def initialize_with_host(url: str, host: str) -> int:
    """The status of an MCP initialize request to `url` sent with the Host header `host`."""
    headers = {"Host": host, "Content-Type": "application/json"}
    headers["Accept"] = "application/json, text/event-stream"
    return fetch(url + "/mcp", json.dumps(INITIALIZE).encode(), headers)[0]


async def test_mcp_rejects_a_foreign_host_header(site) -> None:
    """DNS-rebinding protection: only local Host headers reach the MCP endpoint."""
    url, _, _ = site
    port = url.rsplit(":", 1)[1]
    assert initialize_with_host(url, "evil.example") == 421
    assert initialize_with_host(url, f"localhost:{port}") == 200


@pytest.mark.parametrize("bind", ["0.0.0.0", "192.0.2.7"])
async def test_mcp_keeps_dns_rebinding_protection_off_loopback(world: World, bind: str) -> None:
    """Bound beyond loopback, MCP accepts this machine's names and --allow-host ones only."""
    persona = member_of(world, "general")
    app = create_app(world, persona=persona, lock_persona=True)
    asgi = build_asgi_app(world, app, host=bind, allowed_hosts=["office.internal"])
    with served(asgi) as url:  # served on loopback; the Host header plays the remote client
        port = url.rsplit(":", 1)[1]
        foreign = initialize_with_host(url, f"evil.example:{port}")
        allowed = initialize_with_host(url, f"office.internal:{port}")
        bound = initialize_with_host(url, f"{bind}:{port}")
        machine = initialize_with_host(url, f"{socket.gethostname()}:{port}")
    assert (foreign, allowed) == (421, 200)
    assert (bound, machine) == ((421, 200) if bind == "0.0.0.0" else (200, 421))


def answers(url: str) -> bool:
    try:
        return fetch(url)[0] == 200
    except OSError:  # not listening yet
        return False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def serve_process(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """`officegym serve` in a subprocess on a free port: (base URL, persona)."""
    world_image("default", 0)  # the child loads the cached image instead of building it
    port, persona = free_port(), "kturner"
    cmd = [*OFFICEGYM, "serve", "--db", str(tmp_path / "w.sqlite"), "--port", str(port)]
    proc = subprocess.Popen([*cmd, "--persona", persona], stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while not answers(url + "/healthz"):
            assert proc.poll() is None and time.monotonic() < deadline, "serve did not start"
            time.sleep(0.2)
        yield url, persona
    finally:
        proc.terminate()
        proc.wait(10)


async def test_officegym_serve_mounts_mcp_beside_the_web_ui(serve_process) -> None:
    url, persona = serve_process
    tools, result = await call(url + "/mcp/slack", "slack_get_person", {"person": persona})
    assert {t.name for t in tools} == {t.name for t in tools_for(["slack"])}
    assert result.structured_content["handle"] == persona
    assert fetch(url + "/slack/c/general")[0] == 200  # signed in as the persona by default


async def test_an_in_memory_world_serves_pages_and_mcp_calls_side_by_side(world: World) -> None:
    """One shared connection (StaticPool): page requests and tool calls take turns, all land."""
    persona = member_of(world, "general")
    app = build_asgi_app(world, create_app(world, persona=persona))
    statuses: list[int] = []
    errors: list[bool] = []
    with served(app) as url:
        async with session(url + "/mcp/slack") as s:

            async def post(i: int) -> None:
                args = {"channel": "general", "text": f"side by side {i}"}
                errors.append((await s.call_tool("slack_post_message", args)).is_error)

            async def page() -> None:
                got = await anyio.to_thread.run_sync(fetch, url + "/slack/c/general")
                statuses.append(got[0])

            async with anyio.create_task_group() as tg:
                for i in range(12):
                    tg.start_soon(post, i)
                    tg.start_soon(page)
        _, last = fetch(url + "/slack/c/general")
    assert errors == [False] * 12 and statuses == [200] * 12
    assert all(f"side by side {i}".encode() in last for i in range(12))


# ---------------------------------------------------------------- who a call acts as


async def post_as(url: str, token: str | None, world: World) -> str:
    """Post in #general over MCP with `token`: the author's handle, or the tool error's code."""
    text = f"posted with {token}"
    async with session(url + "/mcp/slack", token) as s:
        result = await s.call_tool("slack_post_message", {"channel": "general", "text": text})
    if result.is_error:
        return f"error:{result.structured_content['error']}"
    with world.session() as db:
        stmt = select(Person.handle).join(Message, Message.user_id == Person.id)
        return db.scalars(stmt.where(Message.text == text)).one()


@pytest.mark.parametrize(
    ("persona", "locked", "expected"),
    [
        # (default persona, locked?) -> author with no token, own token, a colleague's, junk
        ("me", True, ["me", "me", "error:persona_locked", "error:invalid_auth"]),
        ("me", False, ["me", "me", "other", "error:invalid_auth"]),
        (None, False, ["error:not_authed", "me", "other", "error:invalid_auth"]),
    ],
)
async def test_mcp_calls_act_as_the_token_the_persona_policy_admits(
    world: World, persona: str | None, locked: bool, expected: list[str]
) -> None:
    me, other = members_of(world, "general")[:2]
    names = {"me": me, "other": other}
    app = create_app(world, persona=me if persona else None, lock_persona=locked)
    tokens = (None, f"xoxp-{me}", f"xoxp-{other}", "xoxp-no-such-person")
    with served(build_asgi_app(world, app)) as url:
        got = [await post_as(url, token, world) for token in tokens]
    assert got == [names.get(x, x) for x in expected]


@pytest.mark.parametrize("path", ["/no/such/page", "/slack/"])
def test_a_large_body_the_page_never_reads_still_gets_its_answer(site, path: str) -> None:
    """A page that answers without reading a 4 MB body (a 404, a GET-only route) is read
    to its end first: the client gets the answer, not a reset while it still sends."""
    url, _, _ = site
    host, port = url.removeprefix("http://").split(":")
    body = b"q=" + b"x" * 4_000_000
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        sock.sendall(head.encode() + body)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    status = int(answer.split(b" ", 2)[1])
    assert 400 <= status < 500
