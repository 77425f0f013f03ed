"""`officegym rollout`: episodes over Ray (or in this process with --local), their
trajectories streamed to JSONL and Parquet, a summary per template."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from officegym.cli import main
from officegym.gym.trajectory_files import read_jsonl

TEMPLATES = ["slack.pin-message", "crm.pipeline-amount"]


@pytest.mark.xdist_group("ray")
@pytest.mark.usefixtures("local_ray")
def test_the_rollout_command_streams_jsonl_and_parquet(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    out = tmp_path / "run.jsonl"
    args = ["rollout", "--episodes", "6", "--templates", ",".join(TEMPLATES)]
    args += ["--workers", "2", "--out", str(out), "--faults", "0.3"]
    result = CliRunner().invoke(main, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "mean reward 1.000 over 6 episode(s)" in result.output
    records = read_jsonl(out)
    assert sorted(r["index"] for r in records) == list(range(6))
    assert any(s["info"].get("fault") for r in records for s in r["steps"])
    table = pq.read_table(out.with_suffix(".parquet")).to_pylist()
    assert sorted(row["index"] for row in table) == list(range(6))
    assert {row["task_id"] for row in table} == set(TEMPLATES)
    assert all(row["reward"] == 1.0 and row["passed"] for row in table)


def test_a_local_rollout_needs_no_ray_and_reports_failures(tmp_path: Path) -> None:
    out = tmp_path / "local.jsonl"
    args = ["rollout", "--local", "--episodes", "3", "--agent", "random", "--max-steps", "3"]
    args += ["--env", "officegym/slack-v0", "--out", str(out), "--no-parquet", "--seed", "9"]
    result = CliRunner().invoke(main, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "over 3 episode(s)" in result.output and not out.with_suffix(".parquet").exists()
    records = read_jsonl(out)
    assert [r["seed"] for r in sorted(records, key=lambda r: r["index"])] == [9, 10, 11]
    assert all(r["agent"] == "random" and 1 <= r["n_steps"] <= 3 for r in records)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--templates", "slack.nope"], "unknown template(s): slack.nope"),
        (["--mode", "browser", "--faults", "0.2"], "tools-mode option"),
        (["--agent", "openai"], "needs --model"),
        (["--agent", "openai", "--model", "m", "--mode", "browser"], "plays tools mode"),
    ],
)
def test_bad_options_are_usage_errors(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["rollout", "--local", *args], env={"COLUMNS": "200"})
    assert result.exit_code == 2 and message in result.output


def test_a_rollout_whose_episodes_all_failed_reports_their_causes_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What a Ray rollout's driver reports when every episode raised in its actor: no
    mean reward of zeros, the causes in one line, exit 1 (it was 0)."""
    from officegym.cli_rollout import _report
    from officegym.gym.distributed import failed_record
    from officegym.gym.worker import EpisodeSpec, RolloutSettings

    settings = RolloutSettings("oracle")
    why = "LookupError: no environment 'officegym/nope-v0'"
    records = [
        failed_record(EpisodeSpec(i, "officegym/nope-v0", i), settings, why) for i in range(4)
    ]
    with pytest.raises(SystemExit) as ended:
        _report(records, tmp_path / "out.jsonl", None)
    said = " ".join(capsys.readouterr().out.split())
    assert ended.value.code == 1 and "over 0 episode(s)" in said
    assert "4 episode(s) failed, not by the policy, and are left out of the rewards" in said
    assert f"rewards: 4 x env_fault: {why}" in said
