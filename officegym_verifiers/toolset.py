"""officegym's tools as a verifiers 0.4 toolset: native tool calls on one episode per rollout
(``actions = "mcp"``; the default form steps calls in process, `officegym_verifiers.gated`).

verifiers 0.4 (``verifiers.v1``) has no in-process tool env (its 0.3 ``ToolEnv`` /
``StatefulToolEnv`` are gone): tools reach a harness only as MCP servers, a `vf.Toolset`
whose methods see the rollout's state, synced per call over the rollout's state channel.
`OfficeToolset` is that server for one rollout (`OfficeTask.toolsets`): verifiers
launches it as ``python -m officegym_verifiers.toolset``; `setup_task` receives the
rollout's `OfficeData` and resets one officegym tools-mode env on it; `register` serves
every tool of that env (the registry's names, descriptions and JSON schemas, ``submit``
last) through `typed_function`, each call stepped on the env as is. The rollout's
`OfficeState` records the calls and, once the episode ends, its grade, which
`OfficeTask`'s rewards read.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import verifiers.v1 as vf

from officegym.gym.tool_functions import typed_function
from officegym_verifiers.native import open_episode
from officegym_verifiers.state import OfficeState, step_episode

__all__ = ["OfficeToolset", "OfficeToolsetConfig"]


class OfficeToolsetConfig(vf.ToolsetConfig):
    """Where the server runs (verifiers' default: a local subprocess)."""


class OfficeToolset(vf.Toolset[OfficeToolsetConfig, OfficeState]):
    """One rollout's officegym episode, its tools served by name (no server prefix)."""

    TOOL_PREFIX = None

    def __init__(self, config: OfficeToolsetConfig) -> None:
        super().__init__(config)
        self._env: Any = None
        self._specs: list[dict[str, Any]] = []

    async def setup_task(self, task: Any) -> None:
        """Reset the episode of the rollout's task (an `OfficeData`)."""
        env, _, info = open_episode(task)
        self._exit_stack.callback(env.close)
        self._env, self._specs = env, info["tools"]

    def register(self, mcp: Any) -> None:
        """Serve each tool of the episode with the registry's own schema."""
        for spec in self._specs:
            call = functools.partial(self._step, spec["name"], spec["parameters"])
            fn = typed_function(spec, call)
            mcp.add_tool(self._with_state(fn), name=spec["name"], description=spec["description"])
            # The schema the model reads is the registry's (argument descriptions included);
            # the typed signature still validates the call.
            mcp._tool_manager.get_tool(spec["name"]).parameters = spec["parameters"]

    def _step(self, tool: str, schema: Mapping[str, Any], arguments: dict[str, Any]) -> str:
        """Step one call; the observation's text, or how the episode ended."""
        return step_episode(self._env, self.state, tool, _given(arguments, schema))


def _given(arguments: dict[str, Any], schema: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments the model gave: MCP fills every optional one with its default, so
    an optional argument at None without a schema default is one it left out."""
    props, required = schema.get("properties", {}), set(schema.get("required", ()))
    return {
        k: v
        for k, v in arguments.items()
        if not (v is None and k not in required and "default" not in props.get(k, {}))
    }


if __name__ == "__main__":
    OfficeToolset.run()
