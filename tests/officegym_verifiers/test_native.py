"""officegym with native tool calling through a tool server per rollout (``actions =
"mcp"``) in verifiers 0.4: the per-rollout toolset serves the episode's tools with the
registry's schemas through a real MCP client, an episode that ends without ``submit`` is
graded on the state it left, and verifiers' own ``vf-eval`` plays a scripted
OpenAI-compatible model's tool calls to the grade: the reference to 1.0, a policy that
submits without acting or stops without submitting to 0."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from mcp import Client
from mcp.server.mcpserver import MCPServer

from officegym.gym.tools_env import tool_specs
from officegym.tasks import make_task
from officegym.tasks.splits import split_seeds
from officegym_verifiers.native import OfficeData, _graded
from officegym_verifiers.state import OfficeState
from officegym_verifiers.toolset import OfficeToolset, OfficeToolsetConfig
from tests.gym.openai_stub import ScriptedModel
from tests.officegym_verifiers.vf import (
    TEMPLATES,
    idle_last_rewards,
    learn_with_idle_last,
    played_to_the_end,
    vf_eval,
)


def _data(template: str, seed: int) -> OfficeData:
    return OfficeData(template=template, task_seed=seed)


def _calls(template: str, seed: int) -> list[dict[str, Any]]:
    return [
        {"tool": c.name, "arguments": dict(c.arguments)} for c in make_task(template, seed).solution
    ]


def test_the_toolset_serves_the_episode_tools_with_registry_schemas_over_mcp() -> None:
    seed = next(split_seeds("slack.pin-message", "train"))
    task = make_task("slack.pin-message", seed)

    async def play() -> tuple[list[Any], list[str]]:
        toolset = OfficeToolset(OfficeToolsetConfig())
        await toolset.setup_task(_data("slack.pin-message", seed))
        server = MCPServer("officegym")
        toolset.register(server)
        texts = []
        async with toolset._exit_stack, Client(server) as client:
            listed = (await client.list_tools()).tools
            for call in [*_calls("slack.pin-message", seed), {"tool": "slack_list_channels",
                         "arguments": {}}, {"tool": "slack_pin_message", "arguments":
                         {"message_id": 10**9}}, {"tool": "submit", "arguments": {}}]:  # fmt: skip
                result = await client.call_tool(call["tool"], call["arguments"])
                texts.append(result.content[0].text)
            assert toolset._env.unwrapped.last_grade.reward == 1.0
        return listed, texts

    listed, texts = asyncio.run(play())
    specs = tool_specs(task.apps)
    assert [t.name for t in listed] == [s["name"] for s in specs]
    assert [(t.description, t.input_schema) for t in listed] == [
        (s["description"], s["parameters"]) for s in specs
    ]
    *reference, listing, bad, submitted = texts
    assert not any(t.startswith("Error") for t in [*reference, listing])
    assert "general" in listing  # optional arguments left out are not sent as None
    assert bad.startswith("Error: ") and submitted == "Submitted."


def test_an_episode_without_submit_is_graded_on_the_state_it_left() -> None:
    seed = next(split_seeds("slack.pin-message", "train"))
    data, calls = _data("slack.pin-message", seed), _calls("slack.pin-message", seed)
    assert asyncio.run(_graded(data, OfficeState(calls=calls))) == (1.0, True)
    assert asyncio.run(_graded(data, OfficeState(calls=calls[:-1]))) == (0.0, False)
    assert asyncio.run(_graded(data, OfficeState(reward=0.5, passed=False))) == (0.5, False)


def test_vf_eval_plays_native_tool_calls_to_the_grade(tmp_path: Path) -> None:
    model = ScriptedModel()
    try:
        instances = learn_with_idle_last(model)
        episodes = vf_eval(model, "reference", tmp_path, TEMPLATES, 2, actions="mcp")
    finally:
        model.close()
    assert played_to_the_end(episodes) == idle_last_rewards(instances)


def test_vf_eval_grades_a_model_that_stops_without_submit_zero(tmp_path: Path) -> None:
    model = ScriptedModel()
    try:
        seed = next(split_seeds("slack.pin-message", "train"))
        model.learn(make_task("slack.pin-message", seed))
        (episode,) = vf_eval(model, "refuse", tmp_path, ["slack.pin-message"], 1, actions="mcp")
    finally:
        model.close()
    (trace,) = episode["traces"]
    assert episode["ok"] and trace["stop_condition"] == "agent_completed"
    assert trace["rewards"]["officegym"]["score"] == 0.0
