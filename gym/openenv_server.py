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

- ``/mcp`` and OpenEnv's MCP actions: `OfficeEnvironment` is an `MCPEnvironment` whose
  FastMCP server has one tool per officegym tool of the env (`typed_function`: the same
  names, descriptions and JSON schemas), so `MCPToolClient.list_tools` / `call_tool` work;
  a call steps the same episode as the plain action does, its result is the tool's JSON
  text or ``Error: ...``, and a ``submit`` call's observation carries the reward and
  ``done`` (the grade is in `state`).

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

from fastmcp import FastMCP
from openenv.core import Action, Observation, State, create_app
from openenv.core.env_server.mcp_environment import MCPEnvironment
from openenv.core.env_server.mcp_types import (
    CallToolAction,
    CallToolObservation,
    ListToolsAction,
)
from pydantic import Field

from officegym.gym import chat
from officegym.gym.rollout import make_env
from officegym.gym.tool_functions import typed_function

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

    @classmethod
    def model_validate(cls, obj: Any, **kwargs: Any) -> Action:  # type: ignore[override]
        """An office action, or one of OpenEnv's MCP actions (``list_tools``,
        ``call_tool``): OpenEnv's server routes those only for its generic action class."""
        if isinstance(obj, dict) and obj.get("type") in _MCP_ACTIONS:
            return _MCP_ACTIONS[obj["type"]].model_validate(obj, **kwargs)
        return super().model_validate(obj, **kwargs)


_MCP_ACTIONS: dict[str, type[Action]] = {"list_tools": ListToolsAction, "call_tool": CallToolAction}


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
    reward: float = 0.0
    grade: dict[str, Any] | None = None


class OfficeEnvironment(MCPEnvironment):
    """One officegym Gymnasium env behind OpenEnv's interface, its tools also over MCP."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, env_id: str = "officegym/slack-v0", **env_kwargs: Any) -> None:
        self.env = make_env(env_id, **env_kwargs)
        self._state = OfficeState(env_id=env_id)
        super().__init__(self._mcp_server())

    def _mcp_server(self) -> FastMCP:
        """A FastMCP server with every tool of the env's apps, each stepping this env."""
        server = FastMCP("officegym")
        space = self.env.unwrapped.action_space  # the env's tools, submit last
        for spec in space.specs:
            name = spec["name"]

            def call(arguments: dict[str, Any], name: str = name) -> str:
                obs = self._advance({"tool": name, "arguments": arguments})
                if self._state.done:
                    return "Submitted." if name == "submit" else "The episode has ended."
                return chat.tool_result_text(obs.model_dump())

            server.tool(typed_function(spec, call))
        return server

    async def _async_handle_call_tool(
        self, action: CallToolAction, timeout_s: float | None = None
    ) -> CallToolObservation:
        """An MCP call, its observation carrying the episode's reward and end."""
        obs = await super()._async_handle_call_tool(action, timeout_s=timeout_s)
        obs.reward, obs.done = self._state.reward, self._state.done
        return obs

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

    def _step_impl(
        self, action: Action, timeout_s: float | None = None, **kwargs: Any
    ) -> OfficeObservation:
        """Run the tool call of a plain action; the grade is the reward of the last step."""
        if not isinstance(action, OfficeAction):
            action = OfficeAction.model_validate(action.model_dump(exclude={"metadata"}))
        return self._advance({"tool": action.tool, "arguments": action.arguments})

    def _advance(self, call: dict[str, Any]) -> OfficeObservation:
        """Step the Gymnasium env with one tool call and record where the episode is."""
        # Before any reset (OpenEnv's stateless HTTP step) the env itself answers with its
        # "call reset() first" error; Gymnasium's order check would raise instead.
        target = self.env if self._state.task else self.env.unwrapped
        obs, reward, terminated, truncated, info = target.step(call)
        if info.get("error_code") != "no_episode":
            self._state.step_count += 1
        done = bool(terminated or truncated)
        self._state.done, self._state.reward = done, float(reward)
        self._state.grade = info.get("grade") or self._state.grade
        return OfficeObservation(
            **obs, task=dict(self._state.task), grade=info.get("grade"), reward=float(reward),
            done=done,
        )  # fmt: skip

    @property
    def state(self) -> OfficeState:
        return self._state

    def close(self) -> None:
        self.env.close()
        super().close()


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
