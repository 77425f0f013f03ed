"""officegym in SkyRL-gym: registered as ``officegym``, made by ``skyrl_gym.make`` from a
dataset row, and played with model texts: reference calls as Hermes ``<tool_call>`` text
reach the grade 1.0 on ``submit``; submitting without acting scores 0; a text that makes
no call is the env's error, not the end."""

from __future__ import annotations

import itertools
import json

import pytest
import skyrl_gym

from officegym.gym.skyrl_env import ENV_ID, OfficeSkyRLEnv, parse_action, parse_actions
from officegym.tasks import make_task
from officegym.tasks.splits import split_seeds

TEMPLATES = ["slack.pin-message", "crm.pipeline-amount"]


def _text(name: str, arguments: dict) -> str:
    call = json.dumps({"name": name, "arguments": arguments})
    return f"I'll do that now.\n<tool_call>\n{call}\n</tool_call>"


def _make(template: str, seed: int, **row: object) -> OfficeSkyRLEnv:
    extras = {"extra_info": {"template": template, "seed": seed, **row}}
    return skyrl_gym.make(ENV_ID, env_config={}, extras=extras)


@pytest.mark.parametrize("template", TEMPLATES)
def test_reference_tool_call_texts_reach_reward_one(template: str) -> None:
    for seed in itertools.islice(split_seeds(template, "train"), 2):
        task = make_task(template, seed)
        env = _make(template, seed)
        messages, meta = env.init([{"role": "system", "content": "Be brief."}])
        assert messages[0]["role"] == "system" and task.goal in messages[-1]["content"]
        assert meta["tools"][-1]["function"]["name"] == "submit"
        for call in task.solution:
            out = env.step(_text(call.name, dict(call.arguments)))
            assert not out["done"] and out["reward"] == 0.0
            assert not out["observations"][0]["content"].startswith("Error")
        answer = {} if task.answer is None else {"answer": task.answer}
        out = env.step(_text("submit", answer))
        assert out["done"] and out["reward"] == 1.0 and out["metadata"]["grade"]["passed"]
        assert env.get_metrics() == {"passed": 1.0, "steps": len(task.solution) + 1}
        env.close()


def test_submitting_without_acting_scores_zero_and_junk_is_an_error() -> None:
    template = TEMPLATES[0]
    env = _make(template, next(split_seeds(template, "train")), max_steps=5)
    env.init([])
    junk = env.step("Sure, pinning it now!")
    assert not junk["done"] and junk["observations"][0]["content"].startswith("Error: ")
    out = env.step('{"tool": "submit", "arguments": {}}')  # the Gym's own JSON action
    assert out["done"] and out["reward"] == 0.0 and env.get_metrics()["passed"] == 0.0
    env.close()


def test_the_step_limit_ends_the_episode_graded() -> None:
    template = TEMPLATES[0]
    env = _make(template, next(split_seeds(template, "train")), max_steps=2)
    env.init([])
    assert not env.step(_text("slack_list_channels", {}))["done"]
    out = env.step(_text("slack_list_channels", {}))
    assert out["done"] and out["reward"] == 0.0 and "grade" in out["metadata"]


def test_parse_action_reads_the_first_tool_call_and_json_text_arguments() -> None:
    text = _text("a", {"x": 1}) + _text("b", {})
    assert parse_action(text) == {"tool": "a", "arguments": {"x": 1}}
    stringly = '<tool_call>{"name": "a", "arguments": "{\\"x\\": 2}"}</tool_call>'
    assert parse_action(stringly) == {"tool": "a", "arguments": {"x": 2}}
    assert parse_action("<tool_call>[1]</tool_call>") == "[1]"
    assert parse_action("  no call ") == "no call"


def test_a_reply_with_several_tool_calls_runs_them_all_in_order() -> None:
    """SkyRL hands the env the model's whole text: every call in it is stepped, and the
    model reads each result under its call; a submit among them ends the episode."""
    template = TEMPLATES[0]
    seed = next(split_seeds(template, "train"))
    task = make_task(template, seed)
    env = _make(template, seed)
    env.init([])
    calls = [_text(c.name, dict(c.arguments)) for c in task.solution]
    out = env.step("".join([_text("slack_list_channels", {}), *calls]))
    said = out["observations"][0]["content"]
    total = len(calls) + 1
    assert said.startswith(f"Call 1 of {total} (slack_list_channels):\n")
    assert f"Call {total} of {total} ({task.solution[-1].name}):" in said and "Error" not in said
    out = env.step(_text("submit", {}) + _text("slack_list_channels", {}))
    assert out["done"] and out["reward"] == 1.0 and env.get_metrics()["steps"] == total + 1
    env.close()


def test_parse_actions_reads_every_tool_call() -> None:
    assert parse_actions(_text("a", {"x": 1}) + "then " + _text("b", {})) == [
        {"tool": "a", "arguments": {"x": 1}},
        {"tool": "b", "arguments": {}},
    ]
    assert parse_actions("  no call ") == ["no call"]
