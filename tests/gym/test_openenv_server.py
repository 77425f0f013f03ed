"""officegym served by openenv-core's own server factory and driven by OpenEnv's own
client: reference solutions reach reward 1.0 over WebSocket sessions, sessions are
isolated, the stateless HTTP endpoints answer, bad actions are error observations."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from openenv import GenericEnvClient

from officegym.gym.openenv_server import create_openenv_app
from officegym.tasks import make_task
from tests.servers import served

CASES = [("slack.pin-message", 2), ("crm.pipeline-amount", 1)]


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with served(create_openenv_app("officegym/slack-v0", max_sessions=4)) as base:
        yield base


@pytest.fixture(scope="module")
def all_apps_url() -> Iterator[str]:
    with served(create_openenv_app("officegym/crm-v0", max_sessions=2)) as base:
        yield base


def _play(client, tid: str, seed: int):  # type: ignore[no-untyped-def]
    task = make_task(tid, seed)
    result = client.reset(task=tid, task_seed=seed)
    assert result.observation["goal"] == task.goal and result.reward == 0.0
    assert "submit" in [t["name"] for t in result.observation["tools"]]
    for call in task.solution:
        result = client.step({"tool": call.name, "arguments": dict(call.arguments)})
        assert not result.done and result.observation["error"] == ""
    answer = {} if task.answer is None else {"answer": task.answer}
    return client.step({"tool": "submit", "arguments": answer})


def test_openenvs_client_plays_a_reference_solution_to_reward_one(url: str) -> None:
    with GenericEnvClient(base_url=url).sync() as client:
        result = _play(client, *CASES[0])
        assert (result.reward, result.done) == (1.0, True)
        assert result.observation["grade"]["passed"] is True
        state = client.state()
        assert state["step_count"] == len(make_task(*CASES[0]).solution) + 1
        assert state["task"]["id"] == CASES[0][0] and state["done"] is True


def test_crm_tasks_with_answers_reach_reward_one(all_apps_url: str) -> None:
    with GenericEnvClient(base_url=all_apps_url).sync() as client:
        assert _play(client, *CASES[1]).reward == 1.0


def test_sessions_have_worlds_of_their_own(url: str) -> None:
    tid, seed = "slack.post-channel", 3
    task = make_task(tid, seed)
    post = task.solution[-1]
    with GenericEnvClient(base_url=url).sync() as a, GenericEnvClient(base_url=url).sync() as b:
        a.reset(task=tid, task_seed=seed)
        b.reset(task=tid, task_seed=seed)
        assert a.step({"tool": post.name, "arguments": dict(post.arguments)}).observation["result"]
        done_b = b.step({"tool": "submit", "arguments": {}})
        done_a = a.step({"tool": "submit", "arguments": {}})
    assert (done_a.reward, done_b.reward) == (1.0, 0.0)


def test_a_bad_action_is_an_error_observation_and_the_episode_goes_on(url: str) -> None:
    with GenericEnvClient(base_url=url).sync() as client:
        client.reset(task="slack.set-status", task_seed=1)
        result = client.step({"tool": "slack_no_such_tool", "arguments": {"x": 1}})
        assert "unknown tool" in result.observation["error"] and not result.done
        result = client.step({"tool": "slack_set_status", "arguments": {"bogus": 1}})
        assert "unknown argument" in result.observation["error"] and not result.done


def test_the_stateless_http_endpoints_answer(url: str) -> None:
    reset = httpx.post(f"{url}/reset", json={"task": "slack.pin-message", "task_seed": 2}).json()
    assert reset["observation"]["goal"] == make_task("slack.pin-message", 2).goal
    step = httpx.post(f"{url}/step", json={"action": {"tool": "submit"}}).json()
    assert step["observation"]["error"] == "call reset() before step()" and not step["done"]
    assert httpx.get(f"{url}/state").json()["step_count"] == 0
    schema = httpx.get(f"{url}/schema").json()
    assert {"tool", "arguments"} <= set(schema["action"]["properties"])
    assert httpx.get(f"{url}/health").json()["status"] == "healthy"


def test_openenvs_mcp_tool_client_lists_and_calls_the_tools(url: str) -> None:
    from openenv.core.env_server.mcp_types import CallToolAction
    from openenv.core.mcp_client import MCPToolClient

    tid, seed = "slack.pin-message", 2
    task = make_task(tid, seed)
    with MCPToolClient(base_url=url).sync() as client:
        client.reset(task=tid, task_seed=seed)
        tools = {t.name: t for t in client.list_tools()}
        assert "submit" in tools and "slack_pin_message" in tools
        assert "message_id" in tools["slack_pin_message"].input_schema["properties"]
        for call in task.solution:
            assert not str(client.call_tool(call.name, **dict(call.arguments))).startswith("Error")
        assert "Error" in str(client.call_tool("slack_pin_message", message_id=10**9))
        done = client.step(CallToolAction(tool_name="submit", arguments={}))
        assert (done.reward, done.done) == (1.0, True)
        assert done.observation.result["data"] == "Submitted."
        assert client.call_tool("slack_list_channels") == "The episode has ended."


def test_the_mcp_endpoint_lists_the_tools(url: str) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    answer = httpx.post(f"{url}/mcp", json=body, timeout=30).json()
    names = {t["name"] for t in answer["result"]["tools"]}
    assert {"slack_post_message", "submit"} <= names, answer
