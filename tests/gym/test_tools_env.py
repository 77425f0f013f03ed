"""OfficeEnv episodes: reset picks tasks reproducibly, steps run tools as the persona,
submit and truncation grade the final state, and misuse never raises."""

from __future__ import annotations

import json

import pytest

from officegym.db import serialize
from officegym.gym import OfficeEnv, OracleAgent, run_episode
from officegym.gym.spaces import SUBMIT
from officegym.tasks import load_templates, make_task
from officegym.tasks.splits import split_of, split_seeds
from officegym.tools import tools_for
from tests.gym.conftest import template_ids

LIST = {"tool": "slack_list_channels", "arguments": {}}


def test_reset_returns_goal_persona_tools_and_task(slack_env: OfficeEnv) -> None:
    obs, info = slack_env.reset(seed=0)
    task = slack_env.task
    assert task is not None and obs in slack_env.observation_space
    assert obs["goal"] == task.goal and (obs["result"], obs["error"]) == ("", "")
    assert obs["persona"].startswith(f"@{task.persona} (") and len(obs["persona"]) > 5
    names = [spec["name"] for spec in info["tools"]]
    assert names == [t.name for t in tools_for(["slack"])] + [SUBMIT]
    assert info["task"]["id"] == task.id and info["task"]["split"] == "train"


def test_info_tools_is_a_fresh_copy_each_reset(slack_env: OfficeEnv) -> None:
    _, info = slack_env.reset(seed=0)
    info["tools"][0]["parameters"]["properties"].clear()
    _, again = slack_env.reset(seed=0)
    assert again["tools"][0]["parameters"]["properties"]


def test_same_seed_same_task_and_different_seeds_vary(slack_env: OfficeEnv) -> None:
    picks = []
    for seed in (5, 5, 6, 7, 8):
        _, info = slack_env.reset(seed=seed)
        picks.append((info["task"]["id"], info["task"]["seed"]))
    assert picks[0] == picks[1]
    assert len(set(picks[1:])) == 4
    assert all(split_of(make_task(t, s)) == "train" for t, s in picks)


def test_options_fix_task_seed_and_split(slack_env: OfficeEnv) -> None:
    tid = template_ids()[0]
    _, info = slack_env.reset(seed=1, options={"task": tid, "task_seed": 3})
    assert (info["task"]["id"], info["task"]["seed"]) == (tid, 3)
    assert info["task"]["split"] == split_of(make_task(tid, 3))
    _, info = slack_env.reset(seed=1, options={"split": "test"})
    test_task = make_task(info["task"]["id"], info["task"]["seed"])
    assert info["task"]["split"] == "test" == split_of(test_task)


def test_a_task_seed_outside_the_named_split_is_refused(slack_env: OfficeEnv) -> None:
    tid = template_ids()[0]
    train_seed = next(split_seeds(tid, "train"))
    with pytest.raises(ValueError, match="is a train instance"):
        slack_env.reset(options={"task": tid, "task_seed": train_seed, "split": "test"})


def test_train_and_test_episodes_never_share_a_goal(slack_env: OfficeEnv) -> None:
    goals: dict[str, set[str]] = {"train": set(), "test": set()}
    for seed in range(120):
        split = "test" if seed % 3 == 0 else "train"
        obs, info = slack_env.reset(seed=seed, options={"split": split})
        assert info["task"]["split"] == split
        goals[split].add(f"{info['task']['id']}: {obs['goal']}")
    assert len(goals["test"]) >= 20 and len(goals["train"]) >= 40
    assert not goals["train"] & goals["test"]


@pytest.mark.parametrize(
    "options", [{"nope": 1}, {"task": "slack.no-such-task"}, {"split": "dev"}, {"task_seed": "3"}]
)
def test_bad_reset_options_raise_value_error(slack_env: OfficeEnv, options: dict) -> None:
    with pytest.raises(ValueError):
        slack_env.reset(seed=0, options=options)


@pytest.mark.parametrize("template_id", template_ids()[:4])
def test_oracle_scores_one_and_immediate_submit_scores_zero(
    slack_env: OfficeEnv, template_id: str
) -> None:
    for task_seed in (0, 1):
        options = {"task": template_id, "task_seed": task_seed}
        result = run_episode(slack_env, OracleAgent(), seed=0, options=options)
        assert (result.reward, result.passed) == (1.0, True)
        assert slack_env.last_grade is not None and slack_env.last_grade.passed
        slack_env.reset(seed=0, options=options)
        obs, reward, terminated, truncated, info = slack_env.step({"tool": SUBMIT})
        assert (reward, terminated, truncated) == (0.0, True, False)
        assert info["grade"]["passed"] is False and json.loads(obs["result"])["submitted"]


def _write_task() -> str:
    """A template whose solution changes state and needs no answer."""
    for tid in template_ids():
        task = make_task(tid, 0)
        if task.answer is None and task.solution:
            return tid
    pytest.skip("no write task template")


def test_reaching_max_steps_truncates_and_grades() -> None:
    tid = _write_task()
    task = make_task(tid, 0)
    env = OfficeEnv(task=tid, max_steps=len(task.solution) + 2)
    env.reset(seed=0, options={"task_seed": 0})
    rewards = []
    for call in task.solution:
        obs, reward, terminated, truncated, info = env.step(
            {"tool": call.name, "arguments": call.arguments}
        )
        rewards.append(reward)
        assert not obs["error"], obs["error"]
    obs, reward, terminated, truncated, info = env.step(LIST)
    assert (reward, terminated, truncated) == (0.0, False, False)
    obs, reward, terminated, truncated, info = env.step("garbage")
    assert (terminated, truncated) == (False, True)
    assert reward == 1.0 and info["grade"]["passed"] is True
    assert set(rewards) == {0.0}
    env.close()


def test_truncation_without_work_grades_zero() -> None:
    env = OfficeEnv(app="slack", max_steps=2)
    env.reset(seed=0)
    assert env.step(LIST)[3] is False
    _, reward, terminated, truncated, info = env.step(LIST)
    assert (reward, terminated, truncated) == (0.0, False, True)
    assert info["grade"]["reward"] == 0.0
    env.close()


def test_steps_outside_an_episode_are_errors_not_exceptions() -> None:
    env = OfficeEnv(app="slack")
    obs, reward, terminated, truncated, _ = env.step(LIST)
    assert "reset()" in obs["error"] and reward == 0.0
    env.reset(seed=0)
    env.step({"tool": SUBMIT})
    obs, reward, terminated, truncated, info = env.step(LIST)
    assert "ended" in obs["error"] and (reward, terminated, truncated) == (0.0, True, False)
    assert "grade" not in info
    env.close()


def test_a_failing_tool_call_is_an_error_observation(slack_env: OfficeEnv) -> None:
    slack_env.reset(seed=0)
    call = {"tool": "slack_read_channel", "arguments": {"channel": "no-such-channel-xyz"}}
    obs, reward, _, _, info = slack_env.step(call)
    assert obs["error"] and obs["result"] == "" and info["ok"] is False and reward == 0.0
    assert info["error_code"] not in ("", "internal_error", "invalid_action")


def test_long_results_are_truncated_with_a_note() -> None:
    env = OfficeEnv(app="slack", max_result_chars=100)
    env.reset(seed=0)
    obs, *_ = env.step(LIST)
    assert obs["result"].startswith("[") and "[truncated:" in obs["result"]
    assert obs in env.observation_space
    env.close()


def test_ansi_render_shows_the_goal_and_last_action() -> None:
    env = OfficeEnv(app="slack", render_mode="ansi")
    env.reset(seed=0)
    env.step(LIST)
    text = env.render()
    assert isinstance(text, str) and env.task is not None
    assert env.task.goal[:40] in text and "slack_list_channels" in text
    env.close()
    assert OfficeEnv(app="slack").render() is None


@pytest.mark.parametrize(
    "kwargs",
    [
        {"app": "slack", "mode": "browser"},
        {"app": "slack", "task": template_ids()[0]},
        {},
        {"app": "no-such-app"},
        {"task": "slack.no-such-task"},
        {"app": "slack", "render_mode": "human"},
        {"app": "slack", "split": "dev"},
        {"app": "slack", "max_steps": 0},
    ],
)
def test_bad_settings_fail_at_construction(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        OfficeEnv(**kwargs)


def test_every_app_env_only_offers_its_tasks_tools() -> None:
    templates = load_templates()
    env = OfficeEnv(task=template_ids()[0])
    _, info = env.reset(seed=0)
    apps = set(templates[template_ids()[0]].apps)
    assert {s["name"].split("_")[0] for s in info["tools"] if s["name"] != SUBMIT} == apps
    env.close()


def test_malformed_actions_leave_the_database_unchanged(slack_env: OfficeEnv) -> None:
    slack_env.reset(seed=0)
    before = serialize(slack_env.world.engine)
    for action in (None, 7, "{", {"tool": "slack_post_message", "arguments": {"channel": 1}}):
        obs, *_ = slack_env.step(action)
        assert obs["error"]
    assert serialize(slack_env.world.engine) == before
