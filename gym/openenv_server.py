"""officegym as an OpenEnv environment, served by openenv-core's own server factory.

`OfficeEnvironment` is an `openenv.core.Environment` around the same Gymnasium env
(`gymnasium.make(env_id, ...)`): nothing about episodes is reimplemented, reset picks the
task and step runs the tool call exactly as in Gymnasium. `create_openenv_app` hands
it to `openenv.core.create_app`, which serves (checked against openenv-core 0.3.0):

- ``POST /reset``, ``POST /step``, ``GET /state``, ``GET /schema``, ``GET /health``:
  OpenEnv's HTTP endpoints are stateless by design (each request makes an env from the
  factory and closes it), so an HTTP reset shows a task and an HTTP step outside a
  session answers with the env's "call reset() first" error;
- ``/ws``: a WebSocket session per client with an env of its own, where episodes run
  (OpenEnv's `EnvClient`, `GenericEnvClient` and `.sync()` clients speak it);
  `max_sessions` caps them (`SUPPORTS_CONCURRENT_SESSIONS` is true: sessions share
  nothing, each env has its own in-memory world).

Reset takes ``seed`` and the env's options as keywords (``task``, ``task_seed``,
``split``); an action is ``{"tool": name, "arguments": {...}}`` (``submit`` ends the
episode). The observation carries ``goal``, ``persona``, ``result``, ``error``, at
reset the ``tools`` (JSON schemas) and the ``task``, at the end the ``grade``; its
``reward`` is the grade on the step that ends the episode and 0 before, ``done`` is
terminated or truncated. The package is the ``openenv`` extra.
"""

from __future__ import annotations

import uuid
from typing import Any

from openenv.core import Action, Environment, Observation, State, create_app
from pydantic import Field

from officegym.gym.rollout import make_env

__all__ = [
    "OfficeAction",
    "OfficeEnvironment",
    "OfficeObservation",
    "OfficeState",
    "create_openenv_app",
]


class OfficeAction(Action):
    """A tool call: the tool's name and its arguments (``submit`` ends the episode)."""

    tool: str = Field(default="", description="Tool name, from the reset observation's tools.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="The tool's arguments.")


class OfficeObservation(Observation):
    """What the agent sees after a reset or a step."""

    goal: str = Field(default="", description="The task, in words.")
    persona: str = Field(default="", description="Who the agent acts as: @handle (Full Name).")
    result: str = Field(default="", description="The last tool result as JSON text.")
    error: str = Field(default="", description="Why the last action failed, or empty.")
    tools: list[dict[str, Any]] = Field(default_factory=list, description="Tool specs (reset).")
    task: dict[str, Any] = Field(default_factory=dict, description="Task id, seed, split.")
    grade: dict[str, Any] | None = Field(default=None, description="The grade, at the end.")


class OfficeState(State):
    """The episode's place: its id, steps taken, and the task being done."""

    env_id: str = ""
    task: dict[str, Any] = Field(default_factory=dict)
    done: bool = False


class OfficeEnvironment(Environment[OfficeAction, OfficeObservation, OfficeState]):
    """One officegym Gymnasium env behind OpenEnv's interface."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, env_id: str = "officegym/slack-v0", **env_kwargs: Any) -> None:
        super().__init__()
        self.env = make_env(env_id, **env_kwargs)
        self._state = OfficeState(env_id=env_id)

    def reset(
        self,
        seed: int | None = None,
        episode_id: str | None = None,
        task: str | None = None,
        task_seed: int | None = None,
        split: str | None = None,
        **kwargs: Any,
    ) -> OfficeObservation:
        """Start an episode; `task`, `task_seed` and `split` are the env's reset options."""
        wanted = {"task": task, "task_seed": task_seed, "split": split}
        options = {k: v for k, v in wanted.items() if v is not None}
        obs, info = self.env.reset(seed=seed, options=options)
        self._state = OfficeState(
            episode_id=episode_id or str(uuid.uuid4()),
            step_count=0,
            env_id=self._state.env_id,
            task=dict(info["task"]),
        )
        return OfficeObservation(**obs, tools=info["tools"], task=dict(info["task"]), reward=0.0)

    def step(
        self, action: OfficeAction, timeout_s: float | None = None, **kwargs: Any
    ) -> OfficeObservation:
        """Run the tool call; the episode's grade is the reward of its last step."""
        call = {"tool": action.tool, "arguments": action.arguments}
        # Before any reset (OpenEnv's stateless HTTP step) the env itself answers with its
        # "call reset() first" error; Gymnasium's order check would raise instead.
        target = self.env if self._state.task else self.env.unwrapped
        obs, reward, terminated, truncated, info = target.step(call)
        if info.get("error_code") != "no_episode":
            self._state.step_count += 1
        done = bool(terminated or truncated)
        self._state.done = done
        return OfficeObservation(
            **obs, task=dict(self._state.task), grade=info.get("grade"), reward=float(reward),
            done=done,
        )  # fmt: skip

    @property
    def state(self) -> OfficeState:
        return self._state

    def close(self) -> None:
        self.env.close()


def create_openenv_app(
    env_id: str = "officegym/slack-v0", *, max_sessions: int = 8, **env_kwargs: Any
) -> Any:
    """The OpenEnv FastAPI app serving `env_id` (``gymnasium.make`` keyword arguments in
    `env_kwargs`), at most `max_sessions` WebSocket sessions at once."""

    def factory() -> OfficeEnvironment:
        return OfficeEnvironment(env_id, **env_kwargs)

    make_env(env_id, **env_kwargs).close()  # a bad id or option fails now, not per session
    return create_app(
        factory,
        OfficeAction,
        OfficeObservation,
        env_name="officegym",
        max_concurrent_envs=max_sessions,
    )
