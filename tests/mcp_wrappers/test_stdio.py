"""MCP over stdio, as an agent host runs it: the real `ClientSession` talks to
``python -m officegym.mcp_wrappers`` in a subprocess, on a world file it shares with
the web UI and with ``officegym grade``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from officegym.cli import main
from officegym.tasks import make_task
from officegym.tools import tools_for
from officegym.web import create_app
from officegym.world import World, world_image

pytestmark = pytest.mark.anyio

OFFICEGYM = [sys.executable, "-c", "from officegym.cli import main; main()"]
TASK = make_task("slack.post-channel", 2)


@asynccontextmanager
async def stdio_session(*args: str) -> AsyncIterator[ClientSession]:
    """An initialized client session with ``python -m officegym.mcp_wrappers <args>``."""
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "officegym.mcp_wrappers", *args], env=dict(os.environ)
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def grade_file(db: Path, *extra: str) -> dict:
    """``officegym grade --json`` on a world file, as a grader outside the episode runs it."""
    cmd = [*OFFICEGYM, "grade", "--task", TASK.id, "--seed", str(TASK.seed), "--db", str(db)]
    done = subprocess.run([*cmd, "--json", *extra], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


async def test_stdio_server_lists_the_registry_and_survives_malformed_calls() -> None:
    world_image("default", 0)  # build (or load) the image before the child process needs it
    async with stdio_session("--app", "slack", "--persona", TASK.persona) as s:
        tools = (await s.list_tools()).tools
        unknown = await s.call_tool("slack_teleport", {})
        wrong = await s.call_tool("slack_read_channel", {"channel": 42, "limit": "many"})
        denied = await s.call_tool("slack_read_channel", {"channel": "no-such-channel"})
        fine = await s.call_tool("slack_list_channels", {"member_only": True})
    registry = {t.name: (t.description, t.parameters) for t in tools_for(["slack"])}
    assert {t.name: (t.description, t.input_schema) for t in tools} == registry
    assert unknown.is_error and "unknown tool 'slack_teleport'" in unknown.content[0].text
    assert wrong.is_error and "'channel'" in wrong.content[0].text
    assert denied.is_error and denied.content[0].text == (
        "no channel 'no-such-channel' that you can see"
    )
    assert not fine.is_error and fine.structured_content["result"]


async def test_a_task_solved_over_stdio_shows_on_the_web_and_grades_one(tmp_path: Path) -> None:
    db = tmp_path / "served.sqlite"
    world = World(world_image("default", 0), url=f"sqlite:///{db}")
    async with stdio_session("--app", "all", "--persona", TASK.persona, "--db", str(db)) as s:
        results = [await s.call_tool(c.name, c.arguments) for c in TASK.solution]
    assert [r.is_error for r in results] == [False] * len(TASK.solution)

    web = create_app(world, config={"TESTING": True}).test_client()
    channel, text = TASK.solution[0].arguments["channel"], TASK.solution[0].arguments["text"]
    page = web.get(f"/login/{TASK.persona}?next=/slack/c/{channel}", follow_redirects=True)
    assert page.status_code == 200 and text in page.get_data(as_text=True)

    solved = grade_file(db)  # another process reads what the MCP process wrote
    assert (solved["reward"], solved["passed"]) == (1.0, True)
    assert solved["checks"][0]["passed"] and not solved["collateral"]
    world.close()


def test_grade_prints_a_readable_report_and_refuses_unknown_tasks(tmp_path: Path) -> None:
    db = tmp_path / "served.sqlite"
    World(world_image("default", 0), url=f"sqlite:///{db}").close()
    args = ["grade", "--seed", str(TASK.seed), "--db", str(db), "--task"]
    report = CliRunner().invoke(main, [*args, TASK.id], env={"COLUMNS": "200"})
    as_json = CliRunner().invoke(main, [*args, TASK.id, "--json"])
    unknown = CliRunner().invoke(main, [*args, "slack.nope"])
    assert report.exit_code == 0 and "reward 0.000  passed False" in report.output
    assert TASK.checks[0].name in report.output
    graded = json.loads(as_json.output)
    assert (graded["reward"], graded["passed"], graded["task"]) == (0.0, False, TASK.id)
    assert unknown.exit_code == 2 and "slack.nope" in unknown.output
