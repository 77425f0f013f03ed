"""Gymnasium's own step limit grades the truncated episode as the env's `max_steps` does
(explicitly: every id is registered with our `GradeOnTruncation` outermost, and a
hand-made `TimeLimit` is wrapped in it), and an env that cannot be pickled says what to
do instead."""

from __future__ import annotations

import pickle

import gymnasium
import pytest
from gymnasium.wrappers import TimeLimit

from officegym.gym import OfficeEnv
from officegym.gym.episode import GradeOnTruncation

TASK = "slack.post-channel"
LIST = {"tool": "slack_list_channels", "arguments": {}}


def _play_solution_then_list(env: gymnasium.Env, steps: int) -> tuple[float, dict, bool, int]:
    """Do the reference solution, then list channels until the episode ends."""
    env.reset(seed=0, options={"task_seed": 1})
    calls = list(env.unwrapped.task.solution)
    n = 0
    while True:
        call = calls.pop(0) if calls else None
        action = {"tool": call.name, "arguments": dict(call.arguments)} if call else LIST
        _, reward, terminated, truncated, info = env.step(action)
        n += 1
        if terminated or truncated:
            return float(reward), info, truncated, n


def _own_limit_outcome() -> tuple[float, dict]:
    env = gymnasium.make(f"officegym/{TASK}-v0", max_steps=4)
    reward, info, truncated, n = _play_solution_then_list(env, 4)
    env.close()
    assert truncated and n == 4
    return reward, info["grade"]


@pytest.mark.parametrize("how", ["make", "wrapper", "vector"])
def test_a_gymnasium_step_limit_grades_like_max_steps(how: str) -> None:
    reward, grade = _own_limit_outcome()
    assert reward == 1.0
    if how == "make":
        env = gymnasium.make(f"officegym/{TASK}-v0", max_episode_steps=4)
    elif how == "wrapper":
        env = GradeOnTruncation(TimeLimit(OfficeEnv(task=TASK), max_episode_steps=4))
    else:
        vec = gymnasium.make_vec(f"officegym/{TASK}-v0", num_envs=1, max_episode_steps=4)
        env = vec.envs[0]
    got, info, truncated, n = _play_solution_then_list(env, 4)
    assert (truncated, n) == (True, 4)
    assert got == reward and info["grade"] == grade
    env.close()


def test_every_id_is_registered_with_the_grading_wrapper_outermost() -> None:
    env = gymnasium.make(f"officegym/{TASK}-v0", max_episode_steps=4)
    assert isinstance(env, GradeOnTruncation) and isinstance(env.env, TimeLimit)
    assert [w.name for w in env.spec.additional_wrappers][-1] == "GradeOnTruncation"
    env.close()


def test_a_limit_above_max_steps_leaves_max_steps_in_force() -> None:
    env = TimeLimit(OfficeEnv(task=TASK, max_steps=3), max_episode_steps=50)
    _, info, truncated, n = _play_solution_then_list(env, 3)
    assert truncated and n == 3 and "grade" in info
    env.close()


def test_pickling_an_env_names_the_factory_way() -> None:
    env = OfficeEnv(app="slack")
    with pytest.raises(TypeError, match=r"cannot be pickled.*factory"):
        pickle.dumps(env)
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(gymnasium.make("officegym/slack-v0"))
    env.close()
