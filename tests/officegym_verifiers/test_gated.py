"""officegym's native tool calls stepped in the eval's process (``actions = "tools"``, the
default) through verifiers' own tool gate: ``vf-eval`` plays a scripted OpenAI-compatible
model's tool calls with the tools listed by one shared MCP server: the reference to 1.0,
submitting without acting to 0, bad calls as the env's error observations, a model that
stops without ``submit`` graded on the state it left; no episode stays open."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from mcp import Client
from mcp.server.mcpserver import MCPServer

from officegym.tasks import make_task
from officegym.tasks.splits import split_seeds
from officegym_verifiers.gated import open_episodes
from officegym_verifiers.listing import NOT_GATED, OfficeToolList, OfficeToolListConfig
from tests.gym.openai_stub import ScriptedModel
from tests.officegym_verifiers.vf import (
    TEMPLATES,
    idle_last_rewards,
    learn_with_idle_last,
    played_to_the_end,
    vf_eval,
)


def test_a_call_that_skips_the_gate_is_answered_with_an_error_by_the_listing() -> None:
    async def call() -> tuple[list[Any], str]:
        server = MCPServer("officegym")
        OfficeToolList(OfficeToolListConfig()).register(server)
        async with Client(server) as client:
            listed = (await client.list_tools()).tools
            result = await client.call_tool("slack_list_channels", {"member_only": True})
        return listed, result.content[0].text

    listed, text = asyncio.run(call())
    assert listed == []  # no rollout's state, no tools of its episode
    assert text == NOT_GATED


def test_vf_eval_steps_native_tool_calls_in_process_to_the_grade(tmp_path: Path) -> None:
    model = ScriptedModel()
    try:
        instances = learn_with_idle_last(model)
        episodes = vf_eval(model, "reference", tmp_path, TEMPLATES, 2)
    finally:
        model.close()
    assert played_to_the_end(episodes) == idle_last_rewards(instances)
    for episode in episodes:  # every call (the reference's, then submit) stepped by the hook
        (trace,) = episode["traces"]
        instance = (episode["task"]["data"]["template"], episode["task"]["data"]["task_seed"])
        calls = 1 if instance == instances[-1] else len(make_task(*instance).solution) + 1
        assert [r["handler"] for r in trace["request_rewrites"]] == ["step_call"] * calls


def _run_eval(model: ScriptedModel, name: str, out: Path) -> Any:
    """verifiers' own `run_eval` (what ``vf-eval`` runs) on one slack.pin-message instance;
    its one trace."""
    from verifiers.v1.cli.eval.runner import run_eval
    from verifiers.v1.configs.cli.eval import EvalConfig

    config = EvalConfig.model_validate({
        "model": name, "push": False, "rich": None, "output_dir": str(out),
        "env": {"taskset": {"id": "officegym-verifiers", "templates": ["slack.pin-message"],
                            "per_template": 1}},
        "client": {"base_url": model.base_url},
    })  # fmt: skip
    (episode,) = asyncio.run(run_eval(config))
    (trace,) = episode.traces
    return trace


def test_bad_calls_are_error_observations_and_a_silent_stop_is_graded(tmp_path: Path) -> None:
    model = ScriptedModel()
    try:
        seed = next(split_seeds("slack.pin-message", "train"))
        model.learn(make_task("slack.pin-message", seed))
        malformed = _run_eval(model, "malformed", tmp_path / "malformed")
        assert open_episodes() == 0
        refused = _run_eval(model, "refuse", tmp_path / "refuse")
        assert open_episodes() == 0
    finally:
        model.close()
    # Broken JSON arguments and an unknown tool, in one reply: the env's two errors.
    bad_json, unknown, *rest = [m.content for m in malformed.messages if m.role == "tool"]
    assert bad_json.startswith("Error: 'arguments' must be a JSON object")
    assert unknown.startswith("Error: unknown tool 'nope'")
    assert rest and not any(t.startswith("Error") for t in rest)
    assert malformed.rewards["officegym"].score == 1.0  # the episode went on to the reference
    assert malformed.stop_condition == "episode_over"
    # Text only, no call: the episode is graded on the state it left, without a call recorded.
    assert refused.stop_condition == "agent_completed"
    assert refused.rewards["officegym"].score == 0.0 and refused.state.calls == []
    assert refused.state.reward == 0.0 and refused.state.passed is False
