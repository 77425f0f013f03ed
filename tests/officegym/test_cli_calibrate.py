"""`officegym calibrate` and `officegym validate --difficulty` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from officegym.cli import main
from officegym.gym.calibration import load_calibration


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
