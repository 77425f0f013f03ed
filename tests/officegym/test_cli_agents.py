"""`officegym run --agent openai`: the LLM agent from the command line, against the tests'
OpenAI-compatible server."""

from __future__ import annotations

import gymnasium
from click.testing import CliRunner

import officegym  # noqa: F401  (registers the environments)
from officegym.cli import main
from tests.gym.openai_stub import ScriptedModel

ENV = "officegym/slack.pin-message-v0"


def test_run_with_the_openai_agent_passes_with_reference_replies(
    scripted_model: ScriptedModel,
) -> None:
    env = gymnasium.make(ENV)  # the harness learns the tasks the run's seeds give
    env.reset(seed=3)
    scripted_model.learn(env.unwrapped.task)
    env.reset()
    scripted_model.learn(env.unwrapped.task)
    env.close()
    args = ["run", "--agent", "openai", "--model", "reference", "--base-url"]
    args += [scripted_model.base_url, "--env", ENV, "--episodes", "2", "--seed", "3"]
    result = CliRunner().invoke(main, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "slack.pin-message" in result.output
    assert "mean reward 1.000 over 2 episode(s)" in result.output


def test_the_openai_agent_needs_a_model() -> None:
    result = CliRunner().invoke(main, ["run", "--agent", "openai", "--env", ENV])
    assert result.exit_code == 2 and "needs --model" in result.output


def test_a_bad_fault_rate_names_the_option() -> None:
    result = CliRunner().invoke(main, ["run", "--faults", "1.5", "--env", ENV])
    assert result.exit_code == 2 and "--faults" in result.output
