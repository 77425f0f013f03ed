"""SkyRL-gym (`skyrl_gym`, extra ``skyrl``): officegym's tools mode as a `BaseTextEnv`,
registered as ``officegym`` when this module is imported.

SkyRL's contract (skyrl-gym 0.4): a dataset row names its env by ``env_class``; SkyRL
makes it with ``skyrl_gym.make(env_class, env_config=..., extras=row)``, calls
``init(prompt)`` for the first messages, then ``step(text)`` with each text the model
generates, whose output is the next messages (``observations``), a ``reward`` and
``done``.

`OfficeSkyRLEnv` plays one instance per env: the row (or its ``extra_info``) gives
``template`` and ``seed`` (``split``, ``difficulty``, ``max_steps`` optional). `init`
resets a tools-mode env and adds the episode's opening (persona, goal, how to finish) as a
user message; its metadata carries the tools as chat-completions function tools, for the
chat template. Each model text makes its actions: every Hermes-style ``<tool_call>{"name":
..., "arguments": {...}}</tool_call>`` in it (what Qwen-family chat templates make of tool
calls), stepped in order, else the whole text as the Gym's own JSON action ``{"tool": ...,
"arguments": ...}``. The results (or the env's errors) come back as one user message, each
headed by its call when there were several; the episode is done on ``submit`` or at the
step limit, with the grade as the reward (0 before), and calls after that are not run.

    import skyrl_gym
    import officegym.gym.skyrl_env  # registers "officegym"
    env = skyrl_gym.make("officegym", extras={"template": "slack.pin-message", "seed": 0})
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Mapping
from typing import Any

import skyrl_gym
from skyrl_gym.envs.base_text_env import BaseTextEnv, BaseTextEnvStepOutput

from officegym.gym import chat
from officegym.gym.registration import env_id
from officegym.gym.rollout import make_env

__all__ = ["ENV_ID", "OfficeSkyRLEnv", "parse_action", "parse_actions", "register"]

ENV_ID = "officegym"
TOOL_CALL = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.DOTALL)


class OfficeSkyRLEnv(BaseTextEnv):
    """One officegym episode as SkyRL's text env; the grade is the final step's reward."""

    def __init__(self, env_config: Any = None, extras: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        row = dict(extras or {})
        row |= dict(row.get("extra_info") or {})
        self.template = str(row["template"])
        self.options: dict[str, Any] = {"task": self.template, "task_seed": int(row["seed"])}
        self.options |= {k: row[k] for k in ("split", "difficulty") if row.get(k) is not None}
        limit = row.get("max_steps")  # None: the task's own step limit
        self.max_turns = int(limit) if limit else None
        self._env = make_env(env_id(self.template), max_steps=self.max_turns)
        self.grade: dict[str, Any] | None = None

    def init(self, prompt: list[dict[str, str]]) -> tuple[list[dict[str, str]], dict[str, Any]]:
        """Reset the episode; the row's prompt then the opening, and the tools."""
        obs, info = self._env.reset(options=self.options)
        self.turns, self.grade = 0, None
        tools = chat.function_tools(info["tools"])
        return [*prompt, chat.opening_message(obs)], {"tools": tools, "task": info["task"]}

    def step(self, action: str) -> BaseTextEnvStepOutput:
        """Step the calls the text makes, in order; their results, or the grade when the
        episode ends (calls after the end are not run)."""
        actions, results = parse_actions(action), []
        for i, each in enumerate(actions, 1):
            self.turns += 1
            obs, reward, terminated, truncated, info = self._env.step(each)
            if terminated or truncated:
                self.grade = info["grade"]
                return BaseTextEnvStepOutput(
                    observations=[], reward=float(reward), done=True, metadata={"grade": self.grade}
                )
            result = chat.tool_result_text(obs)
            name = each.get("tool") if isinstance(each, dict) else None
            head = f"Call {i} of {len(actions)} ({name or 'not a tool call'}):\n"
            results.append(result if len(actions) == 1 else head + result)
        message = {"role": "user", "content": "\n\n".join(results)}
        return BaseTextEnvStepOutput(observations=[message], reward=0.0, done=False, metadata={})

    def get_metrics(self) -> dict[str, Any]:
        """The episode's pass (1.0/0.0) and its number of steps."""
        return {"passed": float(bool(self.grade and self.grade["passed"])), "steps": self.turns}

    def close(self) -> None:
        self._env.close()


def parse_action(text: str) -> str | dict[str, Any]:
    """The first action a model's text makes (see `parse_actions`)."""
    return parse_actions(text)[0]


def parse_actions(text: str) -> list[str | dict[str, Any]]:
    """The actions a model's text makes: each ``<tool_call>`` as a Gym action, in order,
    else the text itself (the Gym reads it as JSON and answers a clear error if it is
    not one)."""
    calls = TOOL_CALL.findall(text)
    return [_call(c) for c in calls] if calls else [text.strip()]


def _call(body: str) -> str | dict[str, Any]:
    """One ``<tool_call>`` body as a Gym action, or the body as is if it is not one."""
    try:
        call = json.loads(body)
    except ValueError:
        return body
    if not isinstance(call, dict):
        return body
    arguments = call.get("arguments", {})
    if isinstance(arguments, str):  # some templates render arguments as JSON text
        with contextlib.suppress(ValueError):
            arguments = json.loads(arguments)
    return {"tool": call.get("name"), "arguments": arguments}


def register() -> None:
    """Register `OfficeSkyRLEnv` with SkyRL-gym as ``officegym`` (once)."""
    if ENV_ID not in skyrl_gym.registry:
        skyrl_gym.register(id=ENV_ID, entry_point=f"{__name__}:OfficeSkyRLEnv")


register()
