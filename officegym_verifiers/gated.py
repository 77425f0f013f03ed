"""An officegym task with native tool calling whose episode lives in the eval's own process:
each tool call the model proposes is stepped there, through verifiers' tool gate.

verifiers 0.4 reaches a harness's tools only over MCP, but it polices every proposed call
before the harness runs it: when the model's reply commits, the task's request hooks
(`@vf.intercept`) see each call with an empty result, and a result a hook writes in is
handed to the harness's gate (``POST /tool``), which then records it in place of running
the call. `OfficeGatedTask.step_call` is that hook: it steps the call on the rollout's
episode (reset in `setup`, in process) and writes the observation in. The harness still
lists the tools from an MCP server, one for the whole eval (`officegym_verifiers.listing`),
which shows each rollout the tools of its episode's apps. So a step costs no tool-server
process, no MCP call and no state pull or push: the model's reply, the env step and one
local HTTP request to the gate.

This needs a harness that asks the gate before each call (verifiers'
``SUPPORTS_TOOL_INTERCEPTION``, as its ``null`` harness does); any other harness plays the
per-rollout tool server instead (``actions = "mcp"``, `officegym_verifiers.native`).
Each stepped call shows in the trace as a request rewrite by ``step_call``.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

import verifiers.v1 as vf

from officegym.gym.llm import sent_arguments as call_arguments  # the LLM agent's own reading
from officegym.gym.spaces import SUBMIT
from officegym_verifiers.native import OfficeTask, open_episode
from officegym_verifiers.state import OfficeState, step_episode

__all__ = ["OfficeGatedTask", "open_episodes"]

# The live episode (env) of each rollout, by trace id: from `setup` to `finalize`.
_episodes: dict[str, Any] = {}


def open_episodes() -> int:
    """How many rollouts' episodes are open in this process (0 once every rollout ended)."""
    return len(_episodes)


class OfficeGatedTask(OfficeTask):
    """An instance played with native tool calls, stepped in process through the tool gate."""

    @classmethod
    def toolsets(cls, config: vf.TaskConfig) -> list[vf.Toolset]:
        return []  # the tools are listed by the eval's shared server (`OfficeTaskset.toolsets`)

    async def setup(self, trace: vf.Trace, runtime: Any = None) -> None:
        """Reset the rollout's episode; its tools' names go in the state for the listing."""
        env, _, info = await asyncio.to_thread(open_episode, self.data)
        trace.state.tools = [spec["name"] for spec in info["tools"]]
        _episodes[trace.id] = env
        # A rollout that fails after setup is never finalized: its env goes with its trace.
        weakref.finalize(trace, _close, trace.id)

    @vf.intercept
    async def step_call(self, request: vf.Request, trace: vf.Trace) -> vf.Request | None:
        """Step the proposed call whose empty result ends `request` on the rollout's
        episode; its observation becomes the call's result (the gate hands it over)."""
        env = _episodes.get(trace.id)
        probe = request.messages[-1] if request.messages else None
        if env is None or not isinstance(probe, vf.ToolMessage) or probe.content != "":
            return None
        call = _proposed(request.messages, probe.tool_call_id)
        if call is None:
            return None
        # Stepped on the event loop: a step is a fraction of a millisecond of Python that
        # holds the GIL anyway, and a hop to a thread costs more than it.
        text = step_episode(env, trace.state, call.name, call_arguments(call.arguments))
        # An empty result would read as "run it" to the gate; officegym's never is.
        request.messages[-1] = probe.model_copy(update={"content": text or "(no output)"})
        return request

    async def finalize(self, trace: vf.Trace, runtime: Any = None) -> None:
        """Grade an episode the model left without ``submit`` on the state it left (as the
        Gym grades a truncated episode), then close it."""
        env = _episodes.pop(trace.id, None)
        if env is None:
            return
        try:
            state: OfficeState = trace.state
            if state.reward is None:
                calls = len(state.calls)
                await asyncio.to_thread(step_episode, env, state, SUBMIT, {})
                del state.calls[calls:]  # the model did not make that call
        finally:
            env.close()


def _proposed(messages: list[Any], call_id: str) -> vf.ToolCall | None:
    """The call `call_id` of the last assistant message in `messages`, if it proposed one."""
    for message in reversed(messages):
        if isinstance(message, vf.AssistantMessage):
            return next((c for c in message.tool_calls or () if c.id == call_id), None)
    return None


def _close(trace_id: str) -> None:
    env = _episodes.pop(trace_id, None)
    if env is not None:
        env.close()
