"""The chat's reads on both databases (SQLite and PostgreSQL): the pages, the history a
bot pages through with `oldest` / `latest` / `cursor`, and the MCP tool, with the edge
values a client may send (ids and times far beyond any row). PostgreSQL refuses to bind
an integer beyond its int4 (a DataError: once a 500 here on every Slack page), SQLite
takes it, so these run on both."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from mcp import Client

from officegym.db import ID_MAX
from officegym.mcp_wrappers import build_server
from officegym.web import create_app
from officegym.world import World, world_image
from tests.postgres import postgres_world

ME = "kturner"
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
AUTH = {"Authorization": f"Bearer xoxp-{ME}"}


@pytest.fixture(scope="module", params=BACKENDS)
def any_world(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[World]:
    """The default world (seed 0) on each database the chat is served from."""
    if request.param == "postgresql":
        with postgres_world("served") as w:
            yield w
        return
    path: Path = tmp_path_factory.mktemp("backends") / "world.sqlite"
    w = World(world_image("default", 0), url=f"sqlite:///{path}")
    yield w
    w.close()


@pytest.fixture
def web(any_world: World) -> FlaskClient:
    app = create_app(any_world, config={"TESTING": True, "SECRET_KEY": "test"})
    return app.test_client()


def _history(web: FlaskClient, channel: str, **params: str) -> dict:
    answer = web.post(
        "/api/conversations.history", data={"channel": channel, **params}, headers=AUTH
    )
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    return answer.get_json()


def _general(web: FlaskClient) -> str:
    listed = web.post("/api/conversations.list", data={"limit": "200"}, headers=AUTH).get_json()
    return next(c["id"] for c in listed["channels"] if c["name"] == "general")


def test_the_pages_render_with_any_page_back_id(web: FlaskClient) -> None:
    assert web.get(f"/login/{ME}").status_code == 302
    assert web.get("/slack/").status_code == 302
    page = web.get("/slack/c/general")
    assert page.status_code == 200 and "general" in page.get_data(as_text=True)
    for before in (ID_MAX, ID_MAX + 1, 2**62, 2**63 + 5, 10**30):
        assert web.get(f"/slack/c/general?before={before}").status_code == 200
    assert web.get(f"/slack/m/{ID_MAX + 1}").status_code == 404


def test_history_windows_by_time_and_message_on_both_databases(web: FlaskClient) -> None:
    general = _general(web)
    everything = _history(web, general, limit="999")["messages"]
    assert len(everything) >= 3
    newest, middle, oldest = everything[0]["ts"], everything[1]["ts"], everything[-1]["ts"]
    # A message's ts bounds exclusively unless `inclusive`.
    between = _history(web, general, oldest=oldest, latest=newest, limit="999")["messages"]
    assert [m["ts"] for m in between] == [m["ts"] for m in everything[1:-1]]
    kept = _history(web, general, oldest=oldest, latest=newest, inclusive="true", limit="999")
    assert [m["ts"] for m in kept["messages"]] == [m["ts"] for m in everything]
    assert _history(web, general, latest=middle, limit="1")["messages"][0]["ts"] != newest
    # Times of no message, up to the last second a datetime holds, and far beyond it.
    for latest in ("9999999999", "253402300799.999999", "99999999999999999999"):
        assert len(_history(web, general, latest=latest, limit="999")["messages"]) == len(
            everything
        )
    assert _history(web, general, oldest="99999999999999999999")["messages"] == []
    assert len(_history(web, general, oldest="1", inclusive="1", limit="999")["messages"]) == len(
        everything
    )


def test_history_pages_by_cursor_and_refuses_none_on_both_databases(web: FlaskClient) -> None:
    general = _general(web)
    first = _history(web, general, limit="2")
    assert first["has_more"] and len(first["messages"]) == 2
    nxt = first["response_metadata"]["next_cursor"]
    second = _history(web, general, limit="2", cursor=nxt)
    assert {m["ts"] for m in second["messages"]}.isdisjoint(m["ts"] for m in first["messages"])
    for big in (ID_MAX + 1, 2**62, 2**70):
        cursor = base64.urlsafe_b64encode(f"next:{big}".encode()).decode()
        answer = web.post(
            "/api/conversations.history",
            data={"channel": general, "cursor": cursor},
            headers=AUTH,
        )
        assert answer.status_code == 200 and answer.get_json().get("error") != "internal_error"


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_the_mcp_read_channel_tool_reads_on_both_databases(any_world: World) -> None:
    async with Client(build_server(any_world, ME, ["slack"])) as client:
        read = await client.call_tool("slack_read_channel", {"channel": "general", "limit": 3})
        assert not read.is_error and len(read.structured_content["messages"]) == 3
        for before in (ID_MAX + 1, 2**62, 2**63 - 1):
            far = await client.call_tool(
                "slack_read_channel",
                {"channel": "general", "limit": 3, "before_message_id": before},
            )
            assert not far.is_error, far.content
            assert far.structured_content["messages"] == read.structured_content["messages"]
