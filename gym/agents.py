"""Reference agents for the CLI, the benchmark and the tests.

An agent sees what a learning agent sees (observation and info) plus the env,
from which the oracle reads the task's reference solution.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

import gymnasium

from officegym.gym.spaces import SUBMIT
from officegym.tools import ToolCall

__all__ = ["AGENTS", "AGENT_NAMES", "Agent", "OracleAgent", "RandomAgent", "make_agent"]


class Agent(Protocol):
    """Chooses actions for one episode at a time."""

    def reset(self, env: gymnasium.Env, observation: dict[str, str], info: dict) -> None: ...

    def act(self, observation: dict[str, str], info: dict[str, Any]) -> str | dict[str, Any]: ...


RETRIED_FAULTS = frozenset({"rate_limited", "timeout", "server_error"})


class OracleAgent:
    """Plays the task's reference solution, then submits the task's answer; a call that
    met an injected fault (`officegym.gym.faults`) is sent again."""

    def __init__(self, seed: int | None = None) -> None:
        """`seed` is accepted (and unused) so every agent is built the same way."""
        self._calls: Iterator[ToolCall] = iter(())
        self._answer: str | None = None
        self._last: dict[str, Any] | None = None

    def reset(self, env: gymnasium.Env, observation: dict[str, str], info: dict) -> None:
        task = env.unwrapped.task  # type: ignore[attr-defined]
        self._calls = iter(task.solution)
        self._answer = task.answer
        self._last = None

    def act(self, observation: dict[str, str], info: dict[str, Any]) -> dict[str, Any]:
        if self._last is not None and info.get("fault") in RETRIED_FAULTS:
            return {"tool": self._last["tool"], "arguments": dict(self._last["arguments"])}
        call = next(self._calls, None)
        if call is not None:
            self._last = {"tool": call.name, "arguments": dict(call.arguments)}
            return {"tool": call.name, "arguments": dict(call.arguments)}
        answer = {} if self._answer is None else {"answer": self._answer}
        return {"tool": SUBMIT, "arguments": answer}


class RandomAgent:
    """Samples the env's action space (seeded once, at its first episode)."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._space: gymnasium.Space | None = None

    def reset(self, env: gymnasium.Env, observation: dict[str, str], info: dict) -> None:
        if self._space is not env.action_space:
            self._space = env.action_space
            self._space.seed(self.seed)

    def act(self, observation: dict[str, str], info: dict[str, Any]) -> str:
        assert self._space is not None, "call reset() first"
        return self._space.sample()


AGENTS: dict[str, type[OracleAgent] | type[RandomAgent]] = {
    "oracle": OracleAgent,
    "random": RandomAgent,
}

AGENT_NAMES = ("oracle", "random", "openai", "browser-oracle")


def make_agent(name: str, *, seed: int | None = None, **options: Any) -> Agent:
    """An agent by name: ``oracle``, ``random``, ``openai`` (`officegym.gym.llm.ChatAgent`,
    `options` are its keyword arguments: ``model``, ``base_url`` ...) or ``browser-oracle``
    (the reference solution played in browser mode)."""
    if name == "openai":
        from officegym.gym.llm import ChatAgent

        return ChatAgent(seed=seed, **options)
    if name == "browser-oracle":
        from officegym.gym.browser.solutions import BrowserOracleAgent

        return BrowserOracleAgent(seed=seed)
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; use one of {', '.join(AGENT_NAMES)}")
    if options:
        raise ValueError(f"agent {name!r} takes no options, got {sorted(options)}")
    return AGENTS[name](seed=seed)
