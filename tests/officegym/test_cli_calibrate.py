"""`officegym calibrate` and `officegym validate --difficulty` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium
import pytest
from click.testing import CliRunner

import officegym  # noqa: F401  (registers the environments)
from officegym.cli import main
from officegym.gym.calibration import load_calibration
from officegym.gym.registration import env_id
from tests.gym.openai_stub import ScriptedModel


def test_calibrate_prints_rates_with_intervals_and_writes_the_file(tmp_path: Path) -> None:
    out = tmp_path / "cal.json"
    args = ["calibrate", "--agent", "noisy:1.0", "--rollouts", "2", "--templates",
            "slack.post-channel", "--difficulty", "easy,hard", "--out", str(out)]  # fmt: skip
    result = CliRunner().invoke(main, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "slack.post-channel" in result.output and "95% CI" in result.output
    assert "0%: hard (reference passes)" in result.output
    cal = load_calibration(out)
    assert cal.agent == "noisy:1.0" and cal.rollouts == 2
    assert [(e.difficulty, e.passed, e.flag) for e in cal.entries] == [
        ("easy", 0, "zero"),
        ("hard", 0, "zero"),
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agent", "noisy:abc"], "noisy agent needs its error rate"),
        (["--agent", "genius"], "unknown agent 'genius'"),
        (["--templates", "slack.nope"], "unknown template(s): slack.nope"),
        (["--difficulty", "insane"], "unknown level(s)"),
        (["--agent", "openai"], "--model"),
    ],
)
def test_bad_calibrate_options_are_usage_errors(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["calibrate", "--rollouts", "1", *args])
    assert result.exit_code == 2 and message in result.output, result.output


def test_validate_checks_each_level_of_a_knobbed_template() -> None:
    args = ["validate", "crm.close-case", "slack.count-members", "--seeds", "1", "--json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    names = set(json.loads(result.output)["templates"])
    assert names == {
        "crm.close-case@easy",
        "crm.close-case@medium",
        "crm.close-case@hard",
        "slack.count-members",
    }
    one = CliRunner().invoke(main, [*args[:-1], "--difficulty", "hard", "--json"])
    assert set(json.loads(one.output)["templates"]) == {
        "crm.close-case@hard",
        "slack.count-members",
    }


def test_calibrate_measures_the_openai_compatible_agent(
    scripted_model: ScriptedModel, tmp_path: Path
) -> None:
    """The LLM agent of the gym, against the tests' OpenAI-compatible server: a model that
    replies with the reference passes every episode, one that refuses passes none (and the
    level is flagged hard, not broken)."""
    template, level = "crm.close-case", "medium"
    env = gymnasium.make(env_id(template))
    for seed in range(2):  # the server learns the instances calibrate will reset to
        env.reset(seed=seed, options={"split": "train", "difficulty": level})
        scripted_model.learn(env.unwrapped.task)
    env.close()
    for model, passed, flag in (("reference", 2, "too-easy"), ("refuse", 0, "zero")):
        out = tmp_path / f"{model}.json"
        args = ["calibrate", "--agent", "openai", "--model", model, "--base-url",
                scripted_model.base_url, "--rollouts", "2", "--templates", template,
                "--difficulty", level, "--out", str(out)]  # fmt: skip
        result = CliRunner().invoke(main, args, env={"COLUMNS": "200"})
        assert result.exit_code == 0, result.output
        (entry,) = load_calibration(out).entries
        assert (entry.passed, entry.flag) == (passed, flag)
        assert load_calibration(out).agent == f"openai:{model}"


def test_rollout_takes_a_difficulty(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    args = ["rollout", "--local", "--episodes", "2", "--templates", "crm.close-case",
            "--difficulty", "hard", "--out", str(out), "--no-parquet"]  # fmt: skip
    result = CliRunner().invoke(main, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["task"]["difficulty"], r["passed"]) for r in records] == [("hard", True)] * 2
