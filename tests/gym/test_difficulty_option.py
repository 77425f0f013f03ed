"""Choosing a difficulty level: the ``difficulty`` reset option and env kwarg, in the
episode logic tools mode and browser mode share."""

from __future__ import annotations

from pathlib import Path

import gymnasium
import pytest

import officegym
from officegym.gym.episodes import OPTION_KEYS
from officegym.gym.trajectory_files import TrajectoryWriter, read_jsonl
from officegym.gym.worker import EpisodeSpec, RolloutSettings, plan_episodes, run_local


def test_difficulty_is_a_reset_option() -> None:
    assert "difficulty" in OPTION_KEYS


def test_a_reset_option_builds_the_task_at_that_level_and_info_says_so() -> None:
    env = gymnasium.make("officegym/crm.close-case-v0")
    try:
        _, easy = env.reset(seed=3)
        _, hard = env.reset(seed=3, options={"difficulty": "hard"})
        assert (easy["task"]["difficulty"], easy["task"]["params"]) == ("easy", {"rows": 1})
        assert (hard["task"]["difficulty"], hard["task"]["params"]) == ("hard", {"rows": 3})
        assert len(env.unwrapped.task.solution) == 6
        _, again = env.reset(seed=3, options={"difficulty": 2})
        assert again["task"] == hard["task"]
    finally:
        env.close()


def test_the_env_kwarg_sets_the_level_of_every_reset_and_an_option_overrides_it() -> None:
    env = gymnasium.make("officegym/crm.close-case-v0", difficulty="medium")
    try:
        levels = {env.reset(seed=s)[1]["task"]["difficulty"] for s in range(3)}
        assert levels == {"medium"}
        _, info = env.reset(seed=0, options={"difficulty": "easy"})
        assert info["task"]["difficulty"] == "easy"
    finally:
        env.close()


def test_an_app_env_at_a_level_samples_only_templates_that_have_it() -> None:
    env = gymnasium.make("officegym/crm-v0", difficulty="hard")
    try:
        registry = officegym.tasks.load_templates()
        for seed in range(8):
            _, info = env.reset(seed=seed)
            tpl = registry[info["task"]["id"]]
            assert info["task"]["difficulty"] == "hard" and "hard" in tpl.levels
    finally:
        env.close()


def test_unknown_or_unavailable_levels_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="easy, medium, hard"):
        gymnasium.make("officegym/crm-v0", difficulty="extreme")
    env = gymnasium.make("officegym/slack.count-members-v0")
    try:
        with pytest.raises(ValueError, match="easy, medium, hard"):
            env.reset(options={"difficulty": "brutal"})
        with pytest.raises(ValueError, match="can be built at difficulty hard"):
            env.reset(options={"difficulty": "hard"})
    finally:
        env.close()
    env = gymnasium.make("officegym/crm-v0")
    try:
        with pytest.raises(ValueError, match="no difficulty knobs"):
            env.reset(options={"task": "crm.escalate-case", "difficulty": "hard"})
    finally:
        env.close()


def test_rollout_records_carry_the_level_into_jsonl_and_parquet(tmp_path: Path) -> None:
    import pyarrow.parquet as pq  # the parquet extra, part of dev

    plan = [
        EpisodeSpec(i, "officegym/crm.close-case-v0", i, {"difficulty": lv})
        for i, lv in enumerate(("easy", "hard"))
    ]
    with TrajectoryWriter(tmp_path / "t.jsonl", tmp_path / "t.parquet") as writer:
        for record in run_local(plan, RolloutSettings("oracle")):
            writer.write(record)
    lines = read_jsonl(tmp_path / "t.jsonl")
    assert [r["task"]["params"] for r in lines] == [{"rows": 1}, {"rows": 3}]
    assert pq.read_table(tmp_path / "t.parquet").column("difficulty").to_pylist() == [
        "easy",
        "hard",
    ]


def test_a_rollout_plan_carries_the_level_to_every_episode() -> None:
    plan = plan_episodes(3, templates=["crm.close-case"], difficulty="medium")
    assert [s.options for s in plan] == [{"split": "train", "difficulty": "medium"}] * 3
    assert plan_episodes(1, templates=["crm.close-case"])[0].options == {"split": "train"}
