"""A browser env that draws its world per reset serves that world's pages: the persona
signs in on the drawn world, and an episode there is graded against it."""

from __future__ import annotations

import pytest

from officegym.gym.browser.manager import BrowserManager
from officegym.gym.browser.solutions import browser_solution
from officegym.gym.browser_env import BrowserEnv
from tests.gym.browser.helpers import changes

pytestmark = pytest.mark.browser

POST = {"task": "slack.post-channel", "task_seed": 0}


def test_each_reset_serves_and_grades_the_drawn_world(chromium: BrowserManager) -> None:
    env = BrowserEnv(app="slack", scenarios=["default", "startup"], world_cache=2)
    try:
        url = env.app_url
        for scenario in ("startup", "default", "startup"):
            obs, info = env.reset(seed=1, options={**POST, "scenario": scenario})
            task = env.task
            assert task is not None and (task.scenario, info["task"]["scenario"]) == (
                scenario,
                scenario,
            )
            assert env.server.world is env.world and env.world.image.scenario == scenario
            assert obs["error"] == "" and f"(@{task.persona})" in obs["axtree"]
            assert info["app_url"] == url  # one server, whichever world it serves
        assert env.task is not None
        for action in browser_solution(env.task):  # the reference, played in the pages
            obs, reward, terminated, _, _ = env.step(action)
            assert obs["error"] == "", (action, obs["error"])
        assert terminated and reward == 1.0  # graded against the startup world
        assert [c.table for c in changes(env)] == ["slack_message"]
        drawn = {env.reset(seed=s)[1]["task"]["scenario"] for s in range(6)}
        assert drawn == {"default", "startup"}
    finally:
        env.close()
