"""RecordEpisodes writes each episode as one JSON line with its steps and grade."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium

import officegym  # noqa: F401  (registers the ids)
from officegym.gym import OracleAgent, RecordEpisodes, run_episode
from officegym.gym.spaces import SUBMIT


def test_each_finished_episode_is_one_complete_line(tmp_path: Path) -> None:
    path = tmp_path / "runs" / "trajectories.jsonl"
    env = RecordEpisodes(gymnasium.make("officegym/slack-v0"), path)
    results = [run_episode(env, OracleAgent(), seed=s) for s in (0, 1)]
    env.close()
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(lines) == 2
    for line, result in zip(lines, results, strict=True):
        assert line["complete"] is True and line["env_id"] == "officegym/slack-v0"
        assert line["task"]["id"] == result.task_id
        assert len(line["steps"]) == result.steps
        assert line["steps"][-1]["action"]["tool"] == SUBMIT
        assert line["steps"][-1]["terminated"] is True
        assert line["reward"] == line["grade"]["reward"] == 1.0
        assert line["observation"]["goal"]


def test_an_episode_cut_short_is_written_as_incomplete(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    env = RecordEpisodes(gymnasium.make("officegym/slack-v0"), path)
    env.reset(seed=0)
    env.step("not json")
    env.step({"tool": "slack_list_channels", "arguments": {"query": object()}})
    env.reset(seed=1)
    env.close()
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [line["complete"] for line in lines] == [False, False]
    assert lines[0]["steps"][0]["action"] == "not json"
    assert "object object" in lines[0]["steps"][1]["action"]
    assert lines[0]["steps"][0]["observation"]["error"]
    assert lines[1]["steps"] == [] and lines[0]["grade"] is None
