"""An officegym task with native tool calling in verifiers 0.4 through a tool server per
rollout (``actions = "mcp"``; `officegym_verifiers.gated` derives the default, in-process
form from it): the prompt is the episode's opening, the tools are one `OfficeToolset`
server per rollout, the reward is the grade.

The harness (verifiers' ``null`` chat program by default) runs once per episode: it lists
the toolset's tools, hands them to the model as OpenAI function tools and executes each
call the model makes on the rollout's episode until the model answers without a call.
The episode ends on ``submit`` (or the step limit) and the server records its grade in the
rollout's `OfficeState`. A model that stops without ``submit`` is graded on the state it
left, as the Gym grades a truncated episode: the server is gone by then, so the rollout's
recorded calls are replayed on a fresh episode of the same instance (deterministic) and
submitted without an answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from typing import Any

import verifiers.v1 as vf

from officegym.gym import chat
from officegym.gym.registration import env_id
from officegym.gym.rollout import make_env
from officegym.gym.spaces import SUBMIT
from officegym_verifiers.state import OfficeState

__all__ = ["OfficeData", "OfficeTask", "open_episode", "opening_prompts"]


class OfficeData(vf.TaskData):
    """One task instance: the template, its seed, the world it is built on, the step limit."""

    template: str
    task_seed: int
    scenario: str = "default"
    world_seed: int = 0
    max_steps: int | None = None  # None: the task's own limit


class OfficeTask(vf.Task[OfficeData, OfficeState]):
    """An officegym instance played with native tool calls; rewarded with its grade."""

    @classmethod
    def toolsets(cls, config: vf.TaskConfig) -> list[vf.Toolset]:
        """One officegym tool server per rollout (imported here: verifiers runs that module
        as the server's main program, so the package must not import it first)."""
        from officegym_verifiers.toolset import OfficeToolset, OfficeToolsetConfig

        return [OfficeToolset(OfficeToolsetConfig())]

    @vf.stop
    def episode_over(self, trace: vf.Trace) -> bool:
        """No more model turns once the episode has ended (submitted or out of steps)."""
        return trace.state.reward is not None

    @vf.reward
    async def officegym(self, trace: vf.Trace) -> float:
        """The grade of the final state (1.0 when every check passes)."""
        return (await _graded(self.data, trace.state))[0]

    @vf.reward(weight=0.0)
    async def officegym_passed(self, trace: vf.Trace) -> float:
        """1.0 when the grade passes, else 0.0 (recorded, not summed)."""
        return float((await _graded(self.data, trace.state))[1])


async def _graded(data: OfficeData, state: OfficeState) -> tuple[float, bool]:
    """The episode's grade: the server's, or (without ``submit``) one replay's."""
    if state.reward is not None:
        return state.reward, bool(state.passed)
    if state._replay is None:
        calls = list(state.calls)
        state._replay = asyncio.ensure_future(asyncio.to_thread(replay_grade, data, calls))
    return await asyncio.shield(state._replay)


def open_episode(data: OfficeData) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """A fresh env of `data`'s instance, reset: the env (the caller closes it), the first
    observation and the reset's info (the episode's tools). A failed reset closes it."""
    env = make_env(env_id(data.template), max_steps=data.max_steps, scenario=data.scenario,
                   world_seed=data.world_seed)  # fmt: skip
    try:
        obs, info = env.reset(options={"task": data.template, "task_seed": data.task_seed})
    except BaseException:
        env.close()
        raise
    return env, obs, info


def replay_grade(data: OfficeData, calls: Iterable[Mapping[str, Any]]) -> tuple[float, bool]:
    """Step `calls` on a fresh episode of `data`'s instance, then ``submit``; its grade."""
    env, _, _ = open_episode(data)
    try:
        for call in [*calls, {"tool": SUBMIT, "arguments": {}}]:
            _, reward, terminated, truncated, info = env.step(dict(call))
            if terminated or truncated:
                return float(reward), bool(info["grade"]["passed"])
    finally:
        env.close()
    raise AssertionError("submit did not end the episode")  # the Gym contract says it does


def opening_prompts(
    template: str, seeds: Iterable[int], *, scenario: str, world_seed: int
) -> list[str]:
    """The first user message of each instance's episode, as the env words it (persona,
    goal, how to finish): one env of the template, reset on each seed."""
    env = make_env(env_id(template), scenario=scenario, world_seed=world_seed)
    try:
        return [
            chat.opening_message(env.reset(options={"task": template, "task_seed": s})[0])[
                "content"
            ]
            for s in seeds
        ]
    finally:
        env.close()
