"""The episode state machine both envs share: when an episode ends, that it is graded
once however it ends, and that the curriculum hears of every graded episode."""

from __future__ import annotations

import gymnasium

from officegym.gym import OfficeEnv
from officegym.gym.episode import ENDED, NO_EPISODE, Episode
from officegym.tasks import Grade, make_task

TASK = "slack.post-channel"


class Heard:
    """A sampler that keeps what it was told (the curriculum's side of an ending)."""

    def __init__(self) -> None:
        self.told: list[tuple[str, str, bool | float]] = []

    def observe(self, template: str, level: str, passed: bool | float) -> None:
        self.told.append((template, level, passed))


def _grader(calls: list[int]) -> Grade:
    calls.append(1)
    return Grade(reward=0.5, passed=False, checks=(), collateral=())


def test_an_episode_truncates_at_its_limit_and_is_graded_once() -> None:
    episode, calls, heard = Episode(), [], Heard()
    assert episode.refusal() == NO_EPISODE
    episode.begin(make_task(TASK, 0), limit=2)
    episode.steps = 1
    assert episode.settle(lambda: _grader(calls), heard) == (0.0, False, False, None)
    episode.steps = 2
    reward, terminated, truncated, graded = episode.settle(lambda: _grader(calls), heard)
    assert (reward, terminated, truncated) == (0.5, False, True) and graded is episode.grade
    assert episode.refusal() == ENDED and episode.ended == (False, True)
    assert episode.end(lambda: _grader(calls), heard, truncated=False) is graded
    assert len(calls) == 1 and heard.told == [(TASK, episode.task.difficulty, False)]


def test_a_submitted_episode_terminates_with_the_answer() -> None:
    episode, calls = Episode(), []
    episode.begin(make_task(TASK, 0), limit=5)
    episode.steps = 1
    episode.submit("done")
    _, terminated, truncated, _ = episode.settle(lambda: _grader(calls), None)
    assert (terminated, truncated, episode.answer) == (True, False, "done")


def test_the_tools_env_finishes_like_the_browser_env_and_tells_its_curriculum() -> None:
    """finish() grades once (the reference solution scores 1), later steps are refused,
    and the curriculum hears of the finished episode as of a submitted one."""
    env = OfficeEnv(task=TASK, curriculum="learning-progress")
    env.reset(seed=0, options={"task_seed": 1})
    for call in env.task.solution:
        env.step({"tool": call.name, "arguments": dict(call.arguments)})
    graded = env.finish()
    assert graded.reward == 1.0 and env.finish() is graded and env.last_grade is graded
    _, reward, terminated, _, info = env.step({"tool": "submit"})
    assert reward == 0.0 and terminated and info["error_code"] == "no_episode"
    assert env.truncate() is None
    assert sum(a["episodes"] for a in env.curriculum.snapshot()["arms"]) == 1
    env.close()


def test_grade_on_truncation_does_nothing_without_an_outer_limit() -> None:
    env = gymnasium.make(f"officegym/{TASK}-v0", max_steps=2)
    env.reset(seed=0)
    _, reward, terminated, truncated, info = env.step({"tool": "slack_list_channels"})
    assert (reward, terminated, truncated, "grade" in info) == (0.0, False, False, False)
    _, _, _, truncated, info = env.step({"tool": "slack_list_channels"})
    assert truncated and "grade" in info  # the env's own limit graded it
    env.close()
