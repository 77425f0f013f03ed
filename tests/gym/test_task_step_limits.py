"""Each task's own step limit: three times its reference solution's calls, at least 30,
applied when the env is given no ``max_steps`` (given, it still overrides), shown in
the task's description and card, so a long-horizon reference fits its episode."""

from __future__ import annotations

import pytest

from officegym.gym import OfficeEnv, run_episode
from officegym.gym.agents import make_agent
from officegym.task_card import task_card
from officegym.tasks import load_templates, make_task
from officegym.tasks.base import STEP_FACTOR, STEP_FLOOR


def _longest() -> tuple[str, int]:
    """The template (and seed) whose reference is longest among a few seeds of each."""
    best = ("", 0, 0)
    for tid in load_templates():
        for seed in range(2):
            try:
                n = len(make_task(tid, seed).solution)
            except LookupError:
                continue
            best = max(best, (tid, seed, n), key=lambda b: b[2])
    assert best[2] * STEP_FACTOR > STEP_FLOOR  # the floor alone would cut it short
    return best[0], best[1]


def test_a_task_without_max_steps_gets_its_own_limit_and_the_oracle_finishes() -> None:
    tid, seed = _longest()
    task = make_task(tid, seed)
    env = OfficeEnv(task=tid)
    result = run_episode(env, make_agent("oracle"), seed=0, options={"task_seed": seed})
    assert env.max_steps == task.step_limit == STEP_FACTOR * len(task.solution)
    assert (result.reward, result.passed) == (1.0, True)
    env.close()


def test_given_max_steps_overrides_and_a_short_task_keeps_the_floor() -> None:
    short = make_task("slack.set-status", 0)
    assert short.step_limit == STEP_FLOOR and short.describe()["step_limit"] == STEP_FLOOR
    env = OfficeEnv(task="slack.set-status", max_steps=4)
    env.reset(seed=0)
    assert env.max_steps == 4
    env.close()
    with pytest.raises(ValueError, match="max_steps must be a positive int or None"):
        OfficeEnv(task="slack.set-status", max_steps=0)


def test_the_task_card_shows_the_limit() -> None:
    card = task_card("slack.set-status", 0)
    assert card["step_limit"] == make_task("slack.set-status", 0).step_limit
