"""One episode's state machine, shared by the tools env and the browser env: steps, the
ending (the agent's, the step limit's, `finish`), the grade, the curriculum's feedback.

An env keeps its own way of acting (tool calls, browser actions) and of grading (the
browser env grades with no request touching the database); everything about *when*
an episode ends and what that ending reports lives here, once.

Step limits are explicit. `max_steps` is the env's own limit: reaching it truncates
and grades. Gymnasium's `TimeLimit` truncates *outside* the env, after the env has
answered, so the env cannot grade that step itself; `GradeOnTruncation`, a wrapper of
ours, does: every officegym id is registered with it outermost, so
``gymnasium.make(id, max_episode_steps=n)`` grades the truncated episode as
``max_steps=n`` would. Wrap a hand-made ``TimeLimit(env, n)`` in it the same way (or
pass ``max_steps=n``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, SupportsFloat

import gymnasium

from officegym.tasks import Grade, Task

__all__ = ["ENDED", "NO_EPISODE", "Episode", "GradeOnTruncation", "Sampler"]

NO_EPISODE = "call reset() before step()"
ENDED = "the episode has ended; call reset() to start a new one"


class Sampler(Protocol):
    """What an episode's ending tells a curriculum (`officegym.gym.curriculum`)."""

    def observe(self, template: str, level: str, passed: bool | float) -> None: ...


@dataclass
class Episode:
    """The state of the current episode (`task` None: none yet)."""

    task: Task | None = None
    limit: int = 0
    steps: int = 0
    done: bool = False
    answer: str | None = None
    ended: tuple[bool, bool] = (False, False)  # (terminated, truncated) of the last step
    grade: Grade | None = None

    def begin(self, task: Task, limit: int) -> None:
        """Start an episode on `task` that truncates after `limit` steps."""
        self.task, self.limit, self.steps, self.done = task, limit, 0, False
        self.answer, self.ended, self.grade = None, (False, False), None

    def refusal(self) -> str | None:
        """Why a step cannot be taken now (no episode, or it has ended), else None."""
        if self.task is None:
            return NO_EPISODE
        return ENDED if self.done else None

    def submit(self, answer: str | None) -> None:
        """The agent ends the episode (with its answer, if any): graded at `settle`."""
        self.done, self.answer = True, answer

    def settle(
        self, grader: Callable[[], Grade], sampler: Sampler | None
    ) -> tuple[float, bool, bool, Grade | None]:
        """After a step: (reward, terminated, truncated, grade) — ended by the agent, or
        truncated at the limit, either way graded; else 0 and no grade."""
        terminated = self.done
        truncated = not terminated and self.steps >= self.limit
        if not (terminated or truncated):
            return 0.0, False, False, None
        graded = self.end(grader, sampler, truncated=truncated)
        return graded.reward, terminated, truncated, graded

    def end(
        self, grader: Callable[[], Grade], sampler: Sampler | None, *, truncated: bool
    ) -> Grade:
        """End the episode now (if it has not ended) and grade it once; the curriculum
        hears of every graded episode, however it ended."""
        if self.task is None:
            raise RuntimeError(NO_EPISODE)
        if self.grade is None:
            self.done, self.ended = True, (not truncated, truncated)
            self.grade = grader()
            if sampler is not None:
                sampler.observe(self.task.id, self.task.difficulty, self.grade.passed)
        return self.grade


class GradeOnTruncation(gymnasium.Wrapper[Any, Any, Any, Any]):
    """Grades an episode that a step limit outside the env truncated (Gymnasium's
    `TimeLimit`): that step's reward becomes the grade and ``info["grade"]`` is set, as
    when the env reaches its own `max_steps`. Registered outermost on every officegym
    id; wrap a hand-made ``TimeLimit(env, n)`` in it too."""

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if truncated and not terminated and "grade" not in info:
            graded = self.env.unwrapped.truncate()  # type: ignore[attr-defined]
            if graded is not None:
                reward, info = graded.reward, {**info, "grade": graded.to_dict()}
        return obs, reward, terminated, truncated, info
