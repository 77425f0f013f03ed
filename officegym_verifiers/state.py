"""The state verifiers keeps per rollout of officegym's native tool calling, and the one way
a tool call is stepped on a rollout's episode (shared by the in-process path,
`officegym_verifiers.gated`, and the per-rollout tool server, `officegym_verifiers.toolset`,
which write the state; the task's rewards read it)."""

from __future__ import annotations

import asyncio
from typing import Any

import verifiers.v1 as vf
from pydantic import Field, PrivateAttr

from officegym.gym import chat

__all__ = ["FINISHED", "OfficeState", "step_episode"]

FINISHED = "Error: the task is finished; no more calls are taken."


class OfficeState(vf.State):
    """What a rollout did: its calls as stepped, and the grade once the episode ended;
    ``tools``, the names of its episode's tools, tell the shared listing what to show."""

    calls: list[dict[str, Any]] = Field(default_factory=list)
    reward: float | None = None
    passed: bool | None = None
    tools: list[str] = Field(default_factory=list)
    # The replayed grade of an episode that ended without `submit`, shared by the rewards.
    _replay: asyncio.Future[tuple[float, bool]] | None = PrivateAttr(default=None)


def step_episode(env: Any, state: OfficeState, tool: str, arguments: Any) -> str:
    """Step one call on `env` and record it in `state`; the observation's text, or how the
    episode ended (the grade then goes in `state`)."""
    if state.reward is not None:
        return FINISHED
    action = {"tool": tool, "arguments": arguments}
    state.calls.append(action)
    obs, reward, terminated, truncated, info = env.step(action)
    if terminated or truncated:
        state.reward, state.passed = float(reward), bool(info["grade"]["passed"])
        return "Submitted." if terminated else "Error: the step limit is reached."
    return chat.tool_result_text(obs)
