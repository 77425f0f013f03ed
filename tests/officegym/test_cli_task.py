"""`officegym task show`: an outside agent reads its task without Python, works through
the doors the card names, and `officegym grade` grades the served world."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from click.testing import CliRunner

from officegym import cli
from officegym.runner import ToolRunner
from officegym.tasks import make_task
from officegym.tools import tools_for
from officegym.web import create_app
from officegym.world import World, world_image

TASK, SEED = "crm.pipeline-amount", 1


def _card(*extra: str) -> dict:
    args = ["task", "show", "--task", TASK, "--seed", str(SEED), "--json", *extra]
    result = CliRunner().invoke(cli.main, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_the_card_holds_goal_persona_doors_and_tools() -> None:
    task = make_task(TASK, SEED)
    card = _card("--url", "http://127.0.0.1:9100/", "--db", "w.sqlite")
    assert (card["task"], card["seed"], card["goal"]) == (TASK, SEED, task.goal)
    assert card["persona"]["handle"] == task.persona and card["persona"]["name"]
    assert card["answer_expected"] is True
    assert card["urls"]["login"] == f"http://127.0.0.1:9100/login/{task.persona}?next=/crm/"
    assert card["urls"]["mcp_apps"] == {"crm": "http://127.0.0.1:9100/mcp/crm"}
    assert [t["name"] for t in card["tools"]] == [t.name for t in tools_for(["crm"])]
    assert all(t["parameters"]["type"] == "object" for t in card["tools"])
    assert card["grade_command"].startswith(f"officegym grade --task {TASK} --seed 1 --db w.sqlite")


def test_an_agent_following_the_card_is_graded_by_officegym_grade(tmp_path: Path) -> None:
    db = tmp_path / "served.sqlite"
    card = _card("--db", str(db))
    world = World(world_image(), url=f"sqlite:///{db}")
    client = create_app(world, config={"TESTING": True}).test_client()
    login = card["urls"]["login"].removeprefix("http://127.0.0.1:8000")
    assert client.get(login).headers["Location"] == "/crm/"
    runner = ToolRunner(world, card["persona"]["handle"])  # what an MCP client would call
    for call in make_task(TASK, SEED).solution:
        assert runner.call(call.name, call.arguments).ok
    runner.close()
    world.close()
    command = shlex.split(card["grade_command"].replace("<your answer>", "x"))
    answer = make_task(TASK, SEED).answer
    command[command.index("--answer") + 1] = answer
    result = CliRunner().invoke(cli.main, [*command[1:], "--json"])
    assert result.exit_code == 0, result.output
    graded = json.loads(result.output)
    assert (graded["reward"], graded["passed"]) == (1.0, True)


def test_an_unknown_task_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli.main, ["task", "show", "--task", "slack.nope"])
    assert result.exit_code == 2 and "no task template 'slack.nope'" in result.output
