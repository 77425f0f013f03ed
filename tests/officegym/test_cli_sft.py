"""`officegym export-sft`: from recorded runs, filtered by reward, or gold from the
reference solutions; bad input is a usage error."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from officegym.cli import main


def _invoke(*args: str) -> object:
    return CliRunner().invoke(main, list(args), env={"COLUMNS": "200"})


def test_recorded_runs_are_filtered_by_reward(tmp_path: Path) -> None:
    runs = tmp_path / "runs.jsonl"
    env = "officegym/slack.set-status-v0"
    for agent in ("oracle", "random"):
        result = _invoke("run", "--agent", agent, "--env", env, "--episodes", "3",
                         "--max-steps", "3", "--record", str(runs))  # fmt: skip
        assert result.exit_code == 0, result.output
    out = tmp_path / "sft.jsonl"
    result = _invoke("export-sft", str(runs), "--out", str(out), "--metadata")
    assert result.exit_code == 0 and "of 6 episode(s)" in result.output
    kept = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(kept) >= 3 and all(c["metadata"]["reward"] == 1.0 for c in kept)


def test_gold_data_from_reference_solutions(tmp_path: Path) -> None:
    out = tmp_path / "gold.jsonl"
    result = _invoke("export-sft", "--gold", "--templates", "slack.pin-message",
                     "--episodes", "2", "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "2 conversation(s) of 2 episode(s)" in result.output
    assert len(out.read_text().splitlines()) == 2


def test_bad_inputs_are_usage_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    result = _invoke("export-sft", str(bad), "--out", str(tmp_path / "o.jsonl"))
    assert result.exit_code == 2 and "not JSONL" in result.output
    result = _invoke("export-sft", "--gold", "--templates", "slack.nope", "--out", "x")
    assert result.exit_code == 2 and "slack.nope" in result.output
    result = _invoke("export-sft", "--out", "x")
    assert result.exit_code == 2 and "--gold" in result.output
