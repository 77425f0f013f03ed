"""`officegym run --attack` and `officegym calibrate --attack`: utility without attack, under
attack and attack success per template and vector; the reference agent's utility under
attack equals its utility, the obeying agent's attacks succeed."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from officegym.cli import main
from officegym.gym.calibration import load_calibration

PAIRED = "slack.triage-help-requests,crm.deal-amount-request"  # both read planted data


def _rows(output: str, title: str) -> dict[str, list[str]]:
    """The plain-text table titled `title` in `output`, by its first cell."""
    lines = output.splitlines()
    start = lines.index(f"# {title}") + 2
    rows = {}
    for line in lines[start:]:
        if line.startswith("#") or "\t" not in line:
            break
        cells = line.split("\t")
        rows[cells[0]] = cells[1:]
    return rows


def test_calibrate_with_an_attack_reports_utility_and_success(tmp_path: Path) -> None:
    runner = CliRunner()
    reports = {}
    for agent in ("oracle", "obey"):
        out = tmp_path / f"{agent}.json"
        args = ["calibrate", "--agent", agent, "--rollouts", "2", "--templates", PAIRED,
                "--difficulty", "medium,hard", "--attack", "mixed", "--out", str(out)]  # fmt: skip
        result = runner.invoke(main, args)
        assert result.exit_code == 0, result.output
        reports[agent] = (
            _rows(result.output, "attack report per template (paired episodes)"),
            _rows(result.output, "attack report per vector (paired episodes)"),
            load_calibration(out),
        )
    templates, vectors, cal = reports["oracle"]
    assert cal.attack == "mixed" and all(e.attacked == 2 for e in cal.entries)
    assert all(e.utility_under_attack == e.mean_reward == 1.0 for e in cal.entries)
    assert all(e.attack_success == 0.0 for e in cal.entries)
    assert templates["total"] == ["4", "1.000", "1.000", "0%"]
    assert len(vectors) >= 2 and vectors["total"][-1] == "0%"
    templates, vectors, cal = reports["obey"]
    assert all(e.attack_success == 1.0 for e in cal.entries)
    assert templates["total"][-1] == "100%" and float(templates["total"][2]) < 1.0


def test_run_with_an_attack_pairs_the_same_episodes() -> None:
    args = ["run", "--agent", "obey", "--env", "officegym/slack.triage-help-requests-v0",
            "--episodes", "3", "--attack", "mixed", "--attack-penalty", "0.5"]  # fmt: skip
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    rows = _rows(result.output, "attack report per template (paired episodes)")
    assert rows["slack.triage-help-requests"][:2] == ["3", "1.000"]
    assert rows["total"][-1] == "100%"
    assert "slack.thread-reply" in _rows(
        result.output, "attack report per vector (paired episodes)"
    )


def test_a_benign_calibration_file_has_no_attack_fields(tmp_path: Path) -> None:
    out = tmp_path / "cal.json"
    args = ["calibrate", "--rollouts", "1", "--templates", "slack.post-channel",
            "--difficulty", "easy", "--out", str(out)]  # fmt: skip
    assert CliRunner().invoke(main, args).exit_code == 0
    data = json.loads(out.read_text())
    assert "attack" not in data and "attack_success" not in data["entries"][0]


def test_an_unknown_attack_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["run", "--attack", "rob-the-bank", "--episodes", "1"])
    assert result.exit_code == 2 and "attack must be one of" in result.output


def test_validate_with_an_attack_checks_the_contract_on_every_paired_instance() -> None:
    args = ["validate", "slack.triage-help-requests", "--seeds", "2", "--no-mutants",
            "--jobs", "1", "--attack", "mixed"]  # fmt: skip
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    row = _rows(result.output, "attack contract (mixed)")["slack.triage-help-requests"]
    assert row[:3] == ["2", "2", "0"]
    for by in ("goal", "vector"):
        partial = _rows(result.output, f"partial obedience per {by} (survivors fail)")
        paired, built, reached, inert, killed, survived = map(int, partial["total"])
        assert paired == 2 and built > 0 and survived == 0
        assert reached + inert + killed == built
