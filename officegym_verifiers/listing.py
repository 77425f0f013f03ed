"""officegym's tools listed to verifiers' harnesses by one MCP server for a whole eval.

In the in-process form (`officegym_verifiers.gated`) a rollout's calls are stepped through
verifiers' tool gate, but a harness still learns its tools from MCP servers. `OfficeToolList`
is a taskset-scoped (shared) `vf.Toolset`: verifiers starts it once per eval as
``python -m officegym_verifiers.listing`` and every rollout's harness reaches it with that
rollout's signed state coordinates. It serves every registered tool (the registry's names,
descriptions and JSON schemas, ``submit`` last) and lists to each rollout only its
episode's tools, read from the rollout's `OfficeState.tools`. Its tools are never run
here: a call that reaches one (a harness that skipped the gate) is answered with an error.
"""

from __future__ import annotations

from typing import Any

import verifiers.v1 as vf

from officegym.gym.tools_env import tool_specs
from officegym.tools import tools_for
from officegym_verifiers.state import OfficeState

__all__ = ["NOT_GATED", "OfficeToolList", "OfficeToolListConfig"]

NOT_GATED = (
    "Error: officegym steps this call through verifiers' tool gate, which this harness did "
    "not ask; run it with a harness that does (null) or with --env.taskset.actions mcp."
)


class OfficeToolListConfig(vf.SharedToolsetConfig):
    """Where the server runs (verifiers' default: a local subprocess)."""


class OfficeToolList(vf.Toolset[OfficeToolListConfig, OfficeState]):
    """Every officegym tool by name (no server prefix); each rollout sees its own."""

    TOOL_PREFIX = None

    def register(self, mcp: Any) -> None:
        """Serve each registered tool with the registry's schema; list per rollout."""
        for spec in tool_specs({t.app for t in tools_for()}):
            # Never run, so no typed signature to validate with (building one per tool
            # is most of a second's start-up): the schema the model reads is set as is.
            mcp.add_tool(_not_gated, name=spec["name"], description=spec["description"])
            mcp._tool_manager.get_tool(spec["name"]).parameters = spec["parameters"]
        every = mcp.list_tools

        async def list_tools() -> list[Any]:
            """The tools of the calling rollout's episode, in its env's order."""
            names = (await self._pull_state()).tools
            by_name = {tool.name: tool for tool in await every()}
            return [by_name[name] for name in names]

        mcp.list_tools = list_tools


def _not_gated() -> str:
    return NOT_GATED


if __name__ == "__main__":
    OfficeToolList.run()
