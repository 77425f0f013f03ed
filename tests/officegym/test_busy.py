"""A SQLite write lock held past the bounded wait is a retryable refusal at every door,
never a 500: 503 with ``Retry-After`` on the pages, the Slack API (Slack's envelope) and
the Sheets API (Google's shape), an error outcome for tools and MCP. The lock is held
from another connection, once from the start of a request (its ``BEGIN IMMEDIATE``
waits) and once only at its commit (a reader's shared lock keeps the writer from
writing the file); the wait is shortened to a fraction of a second here."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, g
from mcp import Client
from sqlalchemy import func, select

from officegym import db
from officegym.apps.slack.models import Message
from officegym.mcp_wrappers import build_server
from officegym.runner import ToolRunner
from officegym.web import create_app
from officegym.world import World
from tests.apps.sheets.api_clients import owner_of

ME = "asmith"
POST = {"channel": "general", "text": "while the lock is held"}


@pytest.fixture
def path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(db, "BUSY_TIMEOUT", 0.2)
    return tmp_path / "world.sqlite"


@pytest.fixture
def world(path: Path, file_world: World) -> World:
    """`file_world` (at `path`), opened after the short busy timeout is set."""
    return file_world


@pytest.fixture
def app(world: World) -> Flask:
    return create_app(world, persona=ME, config={"TESTING": True, "SECRET_KEY": "test"})


@contextmanager
def locked(path: Path, how: str) -> Iterator[None]:
    """Another connection holds the write lock (``begin``: from before the request
    starts) or a read lock that only a commit must wait for (``commit``)."""
    other = sqlite3.connect(path, isolation_level=None)
    if how == "begin":
        other.execute("BEGIN IMMEDIATE")
    else:
        other.execute("BEGIN")
        other.execute("SELECT count(*) FROM slack_message").fetchall()
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def messages(world: World) -> int:
    with world.session() as s:
        return s.scalar(select(func.count(Message.id))) or 0


def slack_post(app: Flask) -> Any:
    headers = {"Authorization": f"Bearer xoxp-{ME}"}
    return app.test_client().post("/api/chat.postMessage", json=POST, headers=headers)


@pytest.mark.parametrize("how", ["begin", "commit"])
def test_slack_api_answers_503_with_retry_after_in_slacks_envelope(
    app: Flask, world: World, path: Path, how: str
) -> None:
    before = messages(world)
    with locked(path, how):
        answer = slack_post(app)
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
    assert answer.json["ok"] is False and answer.json["error"] == "service_unavailable"
    assert messages(world) == before
    assert slack_post(app).json["ok"] is True  # the lock released, the same call lands
    assert messages(world) == before + 1


@pytest.mark.parametrize("how", ["begin", "commit"])
def test_sheets_api_answers_503_unavailable_in_googles_shape(
    app: Flask, world: World, path: Path, how: str
) -> None:
    owner, book = owner_of(world, "Orders 2025")
    client = app.test_client()
    url = f"/gsheets/v4/spreadsheets/{book}/values/A1:append?valueInputOption=RAW"
    headers = {"Authorization": f"Bearer xoxp-{owner}"}
    body = {"values": [["held"]]}
    with locked(path, how):
        answer = client.post(url, json=body, headers=headers)
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
    assert answer.json["error"]["status"] == "UNAVAILABLE"
    assert client.post(url, json=body, headers=headers).status_code == 200


@pytest.mark.parametrize("how", ["begin", "commit"])
def test_pages_answer_503_with_retry_after(app: Flask, world: World, path: Path, how: str) -> None:
    client = app.test_client()
    before = messages(world)
    with locked(path, how):
        answer = client.post("/slack/c/general/post", data={"text": "held"})
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
    assert b"busy" in answer.data and answer.mimetype == "text/html"
    assert messages(world) == before


def test_tools_report_a_busy_database_as_an_error_outcome(world: World, path: Path) -> None:
    runner = ToolRunner(world, ME)
    with locked(path, "begin"):
        outcome = runner.call("slack_post_message", POST)
    assert not outcome.ok and outcome.code == "service_unavailable"
    assert "retry" in (outcome.error or "")
    assert runner.call("slack_post_message", POST).ok  # the runner keeps working
    runner.close()


@pytest.mark.anyio
async def test_mcp_reports_a_busy_database_as_a_tool_error(world: World, path: Path) -> None:
    async with Client(build_server(world, ME, ["slack"])) as client:
        with locked(path, "begin"):
            held = await client.call_tool("slack_post_message", POST)
        after = await client.call_tool("slack_post_message", POST)
    assert held.is_error and "busy" in held.content[0].text
    assert not after.is_error


def test_an_error_raised_by_the_commit_gets_the_error_page_not_a_500(
    app: Flask, world: World
) -> None:
    """A lone surrogate that reached the database only at commit is bad input (422)."""

    @app.get("/probe")
    def probe() -> str:
        g.db.add(Message(channel_id=1, user_id=1, text="\ud800", created_at=world.clock.now()))
        return "done"

    answer = app.test_client().get("/probe")
    assert answer.status_code == 422 and b"surrogate" in answer.data


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def test_a_bug_at_the_commit_answers_in_each_apis_own_shape(world: World) -> None:
    """A write the database refuses only at commit (a broken foreign key, as a bug would
    leave) is the Slack API's internal_error and the Sheets API's INTERNAL, in JSON."""
    app = create_app(world, persona=ME, config={"SECRET_KEY": "test"})  # not TESTING: no raise

    @app.after_request
    def leave_a_broken_row(response: Any) -> Any:
        g.db.add(Message(channel_id=10**9, user_id=1, text="x", created_at=world.clock.now()))
        return response

    client = app.test_client()
    slack = client.post("/api/auth.test", headers={"Authorization": f"Bearer xoxp-{ME}"})
    owner, book = owner_of(world, "Orders 2025")
    sheets = client.get(f"/gsheets/v4/spreadsheets/{book}",
                        headers={"Authorization": f"Bearer xoxp-{owner}"})  # fmt: skip
    assert slack.status_code == 500 and slack.json == {
        "ok": False, "error": "internal_error", "detail": "internal error"
    }  # fmt: skip
    assert sheets.status_code == 500 and sheets.json["error"]["status"] == "INTERNAL"
