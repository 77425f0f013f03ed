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
chat template. Each model text is one action: a Hermes-style ``<tool_call>{"name": ...,
"arguments": {...}}</tool_call>`` (what Qwen-family chat templates make of a tool call;
the first one counts), else the whole text as the Gym's own JSON action ``{"tool": ...,
"arguments": ...}``. A result or the env's error comes back as a user message; the episode
is done on ``submit`` or at the step limit, with the grade as the reward (0 before).

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

__all__ = ["ENV_ID", "OfficeSkyRLEnv", "parse_action", "register"]

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
        self.max_turns = int(row.get("max_steps") or 30)
        self._env = make_env(env_id(self.template), max_steps=self.max_turns)
        self.grade: dict[str, Any] | None = None

    def init(self, prompt: list[dict[str, str]]) -> tuple[list[dict[str, str]], dict[str, Any]]:
        """Reset the episode; the row's prompt then the opening, and the tools."""
        obs, info = self._env.reset(options=self.options)
        self.turns, self.grade = 0, None
        tools = chat.function_tools(info["tools"])
        return [*prompt, chat.opening_message(obs)], {"tools": tools, "task": info["task"]}

    def step(self, action: str) -> BaseTextEnvStepOutput:
        """Step the call the text makes; the observation, or the grade when it ends."""
        self.turns += 1
        obs, reward, terminated, truncated, info = self._env.step(parse_action(action))
        if terminated or truncated:
            self.grade = info["grade"]
            return BaseTextEnvStepOutput(
                observations=[], reward=float(reward), done=True, metadata={"grade": self.grade}
            )
        message = {"role": "user", "content": chat.tool_result_text(obs)}
        return BaseTextEnvStepOutput(observations=[message], reward=0.0, done=False, metadata={})

    def get_metrics(self) -> dict[str, Any]:
        """The episode's pass (1.0/0.0) and its number of steps."""
        return {"passed": float(bool(self.grade and self.grade["passed"])), "steps": self.turns}

    def close(self) -> None:
        self._env.close()


def parse_action(text: str) -> str | dict[str, Any]:
    """The action a model's text makes: its first ``<tool_call>`` as a Gym action, else the
    text itself (the Gym reads it as JSON and answers a clear error if it is not one)."""
    match = TOOL_CALL.search(text)
    if match is None:
        return text.strip()
    try:
        call = json.loads(match.group(1))
    except ValueError:
        return match.group(1)
    if not isinstance(call, dict):
        return match.group(1)
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
