"""Browser reference solutions: derived per tool from each app's ``browser`` module, they
solve every template (Slack, CRM and cross-app) through the web UI against real Chromium
(reward 1.0, passed) for several seeds, the chat pages show the facts its question tasks
ask for, and doing nothing fails."""

from __future__ import annotations

import importlib
from collections.abc import Callable

import pytest
from sqlalchemy.orm import Session

from officegym.gym.browser.actions import parse_action
from officegym.gym.browser.solutions import (
    BrowserOracleAgent,
    _initial_world,
    browser_solution,
    browser_steps,
)
from officegym.gym.browser_env import BrowserEnv
from officegym.gym.rollout import run_episode
from officegym.tasks import load_templates, make_task
from officegym.tools import tools_for

TEMPLATES = sorted(load_templates())
SEEDS = (0, 1, 2)


@pytest.mark.parametrize("app", ["slack", "crm"])
def test_every_tool_of_an_app_has_ui_steps(app: str) -> None:
    module = importlib.import_module(f"officegym.apps.{app}.browser")
    assert {t.name for t in tools_for([app])} == set(module.STEPS)


@pytest.mark.parametrize("template_id", TEMPLATES)
def test_browser_solutions_are_well_formed_actions(template_id: str) -> None:
    for seed in (3, 4, 5):  # beyond the seeds played below
        task = make_task(template_id, seed)
        actions = browser_solution(task)
        parsed = [parse_action(a) for a in actions]
        assert parsed[-1].name == "send_msg_to_user"
        assert parsed[-1].args["text"] == (task.answer or "Done.")
        with Session(_initial_world(task.scenario, task.world_seed)) as world:
            silent = [c for c in task.solution if not browser_steps(c, world)]
        assert all(c.name.split("_", 1)[1].startswith(("list", "read")) for c in silent)


@pytest.mark.browser
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("template_id", TEMPLATES)
def test_browser_solution_scores_full_reward(
    env_for: Callable[[str], BrowserEnv], template_id: str, seed: int
) -> None:
    env = env_for(template_id.split(".")[0])
    obs, _ = env.reset(options={"task": template_id, "task_seed": seed})
    task = env.task
    assert task is not None
    seen = [obs["axtree"]]
    for action in browser_solution(task):
        obs, reward, terminated, truncated, info = env.step(action)
        assert obs["error"] == "", (action, obs["error"])
        seen.append(obs["axtree"])
        if terminated or truncated:
            break
    assert terminated and not truncated
    assert (reward, info["grade"]["passed"]) == (1.0, True), info["grade"]
    if task.answer is not None and task.app == "slack":  # the chat pages showed the fact
        assert any(task.answer in text for text in seen)


@pytest.mark.browser
@pytest.mark.parametrize("template_id", TEMPLATES)
def test_doing_nothing_in_the_browser_does_not_pass(
    env_for: Callable[[str], BrowserEnv], template_id: str
) -> None:
    env = env_for(template_id.split(".")[0])
    env.reset(options={"task": template_id, "task_seed": 0})
    _, reward, terminated, _, info = env.step("send_msg_to_user('Done.')")
    assert terminated and reward < 1.0 and info["grade"]["passed"] is False


@pytest.mark.browser
def test_the_browser_oracle_agent_plays_an_episode(browser_env: BrowserEnv) -> None:
    options = {"task": "slack.post-channel", "task_seed": 5}
    result = run_episode(browser_env, BrowserOracleAgent(), options=options)
    assert (result.reward, result.passed, result.task_id) == (1.0, True, "slack.post-channel")
