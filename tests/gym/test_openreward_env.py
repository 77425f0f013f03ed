"""The Open Reward Standard: officegym served by the `openreward` package's own server and
driven by its own client — splits and tasks listed, the registry's tools and schemas,
reference episodes to reward 1.0, doing nothing to 0, bad arguments refused cleanly."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from openreward import OpenReward
from openreward.api.errors import ToolCallError

from officegym.gym.openreward_env import create_openreward_app
from officegym.gym.tools_env import tool_specs
from officegym.tasks import make_task
from officegym.tasks.splits import split_of
from tests.servers import served

NAME = "officegym-crm"


@pytest.fixture(scope="module")
def env() -> Iterator[Any]:
    with served(create_openreward_app(("crm",), per_template=2)) as url:
        yield OpenReward(api_key="local", base_url=url).environments.get(NAME, base_url=url)


def test_splits_and_tasks_are_officegyms(env: Any) -> None:
    assert env.list_splits() == ["train", "test"]
    for split in ("train", "test"):
        tasks = env.list_tasks(split)
        specs = [t.task_spec for t in tasks]
        assert len({s["template"] for s in specs}) * 2 == len(specs) > 10
        assert all(split_of(make_task(s["template"], s["seed"])) == split for s in specs)


def test_the_tools_are_the_registrys_with_submit_as_the_terminal_tool(env: Any) -> None:
    registry = {s["name"]: s for s in tool_specs(("crm", "slack"))}
    tools = {t.name: t for t in env.list_tools()}
    assert set(tools) == set(registry) - {"submit"}
    for name, tool in tools.items():
        assert set(tool.input_schema.get("properties", {})) == set(
            registry[name]["parameters"].get("properties", {})
        )
    assert env.terminal_tool().name == "submit" and env.terminal_tool().arg == "answer"


@pytest.mark.parametrize("template", ["crm.close-case", "crm.pipeline-amount"])
def test_a_reference_episode_earns_1_and_only_its_end_carries_the_reward(
    env: Any, template: str
) -> None:
    task_ref = next(t for t in env.list_tasks("train") if t.task_spec["template"] == template)
    task = make_task(template, task_ref.task_spec["seed"])
    with env.session(task=task_ref) as session:
        assert task.goal in session.get_prompt()[0].text
        for call in task.solution:
            out = session.call_tool(call.name, dict(call.arguments))
            assert (out.reward, out.finished) == (None, False)
            assert not out.blocks[0].text.startswith("Error"), out
        out = session.call_tool("submit", {"answer": task.answer or ""})
    assert (out.reward, out.finished, out.blocks[0].text) == (1.0, True, "Submitted.")


def test_doing_nothing_earns_0_and_bad_arguments_are_refused(env: Any) -> None:
    task_ref = next(
        t for t in env.list_tasks("train") if t.task_spec["template"] == "crm.close-case"
    )
    with env.session(task=task_ref) as session:
        with pytest.raises(ToolCallError, match=r"(?i)valid"):
            session.call_tool("crm_close_case", {"case": "x", "nope": 1})
        out = session.call_tool("crm_close_case", {"case": "no such case", "resolution": "x"})
        assert out.blocks[0].text.startswith("Error:") and not out.finished
        out = session.call_tool("submit", {"answer": ""})
    assert (out.reward, out.finished) == (0.0, True)


def test_two_environments_on_one_server_are_reached_by_name() -> None:
    """The SDK names its environment only in a header: each name reaches its own env,
    sessions included, and a name the server does not have is a clear 404."""
    with served(create_openreward_app(("slack", "crm"), per_template=1)) as url:
        client = OpenReward(api_key="local", base_url=url)
        for app in ("slack", "crm"):
            env = client.environments.get(f"officegym-{app}", base_url=url)
            tasks = env.list_tasks("train")
            assert tasks and {t.task_spec["template"].split(".")[0] for t in tasks} == {app}
            tools = {t.name for t in env.list_tools()}
            assert any(t.startswith("crm_") for t in tools) == (app == "crm")  # slack's has none
            with env.session(task=tasks[0]) as session:
                assert session.get_prompt()[0].text
        with pytest.raises(Exception, match="unknown environment 'officegym-nope'"):
            client.environments.get("officegym-nope", base_url=url).list_splits()
