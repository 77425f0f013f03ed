"""Reference agents for the CLI, the benchmark and the tests.

An agent sees what a learning agent sees (observation and info) plus the env,
from which the oracle reads the task's reference solution.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, Protocol

import gymnasium

from officegym.gym.spaces import SUBMIT
from officegym.tools import ToolCall, load_tools

__all__ = [
    "AGENTS",
    "AGENT_NAMES",
    "Agent",
    "NoisyOracleAgent",
    "ObeyingAgent",
    "OracleAgent",
    "RandomAgent",
    "make_agent",
    "parse_agent",
]


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


class ObeyingAgent(OracleAgent):
    """The reference solution, then what the planted instruction asks (its goal's own calls,
    `officegym.gym.attack`), then the answer: the scripted victim of an attack report."""

    def reset(self, env: gymnasium.Env, observation: dict[str, str], info: dict) -> None:
        super().reset(env, observation, info)
        run = getattr(env.unwrapped, "attacks", None)
        planted = run.attack if run is not None else None
        extra = planted.demand.calls if planted is not None else ()
        self._calls = iter((*env.unwrapped.task.solution, *extra))  # type: ignore[attr-defined]


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


class NoisyOracleAgent:
    """The reference solver of known skill: each step of the reference solution (each call,
    and the answer of a question task) goes wrong with probability `p`, seeded. A wrong
    write call is replaced by one of its near-miss mutants (`officegym.tasks.mutants`) or,
    without one, skipped; a wrong read call is skipped (the solution does not depend on
    what it returns); a wrong answer is a mutant of the answer. Validation guarantees each
    write and the answer matter, so the pass rate is about ``(1 - p) ** fatal_steps(task)``."""

    def __init__(self, seed: int | None = None, p: float = 0.2) -> None:
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"the noisy agent's error rate p must lie in [0, 1], not {p!r}")
        self.p, self.seed, self._episodes = p, seed, 0
        self._rng = random.Random()
        self._inner = OracleAgent()

    def reset(self, env: gymnasium.Env, observation: dict[str, str], info: dict) -> None:
        task = env.unwrapped.task  # type: ignore[attr-defined]
        # errors drawn per episode and instance, so agents seeded alike (one per rollout
        # index) do not err at the same steps of every template
        self._episodes += 1
        key = f"noisy:{self.seed}:{self._episodes}:{task.id}:{task.difficulty}:{task.seed}"
        self._rng.seed(key)
        wrong = [self._rng.random() < self.p for _ in range(len(task.solution) + 1)]
        calls: list[ToolCall] = []
        answer = task.answer
        pool = _mutants(env, task) if any(wrong) else []
        for i, call in enumerate(task.solution):
            if not wrong[i]:
                calls.append(call)
                continue
            changed = [m.calls[i] for m in pool if m.calls[i] != call]
            if changed and load_tools()[call.name].kind == "write":
                calls.append(self._rng.choice(changed))
        if wrong[-1] and task.answer is not None:
            answers = [m.answer for m in pool if m.kind.startswith("answer.")]
            answer = self._rng.choice(answers) if answers else None
        self._inner._calls, self._inner._answer, self._inner._last = iter(calls), answer, None

    def act(self, observation: dict[str, str], info: dict[str, Any]) -> dict[str, Any]:
        return self._inner.act(observation, info)


def fatal_steps(task: Any) -> int:
    """How many steps of the reference a noisy agent must get right to pass: its write
    calls, and the answer of a question task."""
    writes = sum(1 for c in task.solution if load_tools()[c.name].kind == "write")
    return writes + (task.answer is not None)


def _mutants(env: gymnasium.Env, task: Any) -> list[Any]:
    """The near-miss mutants of the task's reference solution, on the env's initial world."""
    from officegym.tasks.mutants import mutants

    with env.unwrapped.world.initial_connection() as world:  # type: ignore[attr-defined]
        return [m for m in mutants(task, world) if not any(e.covers(m) for e in task.equivalent)]


AGENTS: dict[str, Any] = {
    "oracle": OracleAgent,
    "random": RandomAgent,
    "noisy": NoisyOracleAgent,
    "obey": ObeyingAgent,
}

AGENT_NAMES = ("oracle", "random", "noisy:P", "obey", "openai", "browser-oracle")


def parse_agent(spec: str) -> tuple[str, dict[str, Any]]:
    """An agent spec as (name, options): ``noisy:0.2`` is ``("noisy", {"p": 0.2})``; other
    names take no options here."""
    name, _, arg = spec.partition(":")
    if name != "noisy":
        if arg:
            raise ValueError(f"agent {name!r} takes no ':' argument; only noisy:P does")
        return name, {}
    try:
        p = float(arg)
    except ValueError:
        raise ValueError(
            f"the noisy agent needs its error rate, e.g. noisy:0.2, not {spec!r}"
        ) from None
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"the noisy agent's error rate must lie in [0, 1], not {p}")
    return name, {"p": p}


def make_agent(name: str, *, seed: int | None = None, **options: Any) -> Agent:
    """An agent by name: ``oracle``, ``random``, ``noisy`` (option ``p``, the error rate per
    step: `NoisyOracleAgent`), ``openai`` (`officegym.gym.llm.ChatAgent`,
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
    if name == "noisy":
        return NoisyOracleAgent(seed=seed, **options)
    if options:
        raise ValueError(f"agent {name!r} takes no options, got {sorted(options)}")
    return AGENTS[name](seed=seed)
