"""`officegym run --agent openai`: the LLM agent from the command line, against the tests'
OpenAI-compatible server."""

from __future__ import annotations

import json
import re
from pathlib import Path

import gymnasium
import pytest
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


def _closed_port_url() -> str:
    """An OpenAI base URL on a loopback port nobody listens on."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


@pytest.mark.parametrize("where", ["unreachable", "bad request"])
def test_a_dead_model_stops_the_run_with_its_error(
    scripted_model: ScriptedModel, where: str
) -> None:
    # "bad request": the scripted server answers 400 to a task it was not taught
    url = _closed_port_url() if where == "unreachable" else scripted_model.base_url
    args = ["run", "--agent", "openai", "--model", "reference", "--base-url", url]
    args += ["--env", ENV, "--episodes", "3", "--seed", "977"]
    result = CliRunner().invoke(main, args, env={"COLUMNS": "200"})
    assert result.exit_code == 1, result.output
    assert "episode 0: model call failed" in result.output
    expected = "APIConnectionError" if where == "unreachable" else "BadRequestError"
    assert expected in result.output and "mean reward" not in result.output


def test_a_dead_model_stops_a_rollout_non_zero(tmp_path: Path) -> None:
    out = tmp_path / "dead.jsonl"
    args = ["rollout", "--local", "--agent", "openai", "--model", "m", "--base-url"]
    args += [_closed_port_url(), "--env", ENV, "--episodes", "4", "--out", str(out)]
    result = CliRunner().invoke(main, [*args, "--no-parquet"], env={"COLUMNS": "200"})
    assert result.exit_code == 1, result.output
    assert "model call failed" in result.output and "rollout stopped" in result.output
    assert len(out.read_text().splitlines()) == 1  # the first episode is kept, no more run


@pytest.mark.parametrize(
    ("model", "said"), [("not-json", "not JSON"), ("no-choices", "no choices")]
)
def test_a_malformed_model_reply_stops_the_run_with_its_error(
    scripted_model: ScriptedModel, model: str, said: str
) -> None:
    """A 200 that is not a completion is the server's failure: no traceback, no zero."""
    args = ["run", "--agent", "openai", "--model", model, "--base-url", scripted_model.base_url]
    result = CliRunner().invoke(main, [*args, "--env", ENV, "--episodes", "2"])
    assert result.exit_code == 1 and result.exc_info[0] is SystemExit, result.output
    assert f"episode 0: malformed model reply: {said}" in " ".join(result.output.split())
    assert "mean reward" not in result.output


def test_a_dead_models_episode_is_recorded_as_its_failure_not_a_policys_zero(
    scripted_model: ScriptedModel, tmp_path: Path
) -> None:
    """The record says why the episode ended, the SFT export leaves it out even at
    --min-reward 0, and the viewer lists it first, beside a good file's episodes."""
    dead, good = tmp_path / "dead.jsonl", tmp_path / "good.jsonl"
    args = ["run", "--agent", "openai", "--model", "m", "--base-url", _closed_port_url()]
    result = CliRunner().invoke(main, [*args, "--env", ENV, "--record", str(dead)])
    assert result.exit_code == 1
    (line,) = [json.loads(x) for x in dead.read_text().splitlines()]
    assert line["ended"] == "agent_failure" and "APIConnectionError" in line["cause"]
    assert line["agent"] == "openai" and line["reward"] == 0.0
    oracle = ["run", "--agent", "oracle", "--env", ENV, "--episodes", "2", "--record", str(good)]
    assert CliRunner().invoke(main, oracle).exit_code == 0
    assert {json.loads(x)["ended"] for x in good.read_text().splitlines()} == {"submit"}
    sft = tmp_path / "sft.jsonl"
    exported = ["export-sft", str(dead), str(good), "--out", str(sft), "--min-reward", "0"]
    assert CliRunner().invoke(main, exported).exit_code == 0
    assert len(sft.read_text().splitlines()) == 2  # the two oracle episodes only
    page = tmp_path / "both.html"
    shown = CliRunner().invoke(main, ["view", str(good), str(dead), "--out", str(page)])
    assert shown.exit_code == 0, shown.output
    rows = re.findall(r'<tr id="row-\d+">(.*?)</tr>', page.read_text(), re.S)
    assert len(rows) == 3 and "agent_failure: model call failed" in rows[0]
    assert "1 failed (not by the policy)" in page.read_text()
