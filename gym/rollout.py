"""Running whole episodes: what the CLI and the benchmark share."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium

from officegym.errors import NotFound
from officegym.gym.agents import Agent
from officegym.gym.recording import RecordEpisodes, recorder_of
from officegym.gym.registration import NAMESPACE, register_envs

__all__ = ["EpisodeResult", "Summary", "app_env_ids", "make_env", "run_episode", "summarize"]


@dataclass(frozen=True)
class EpisodeResult:
    """How one episode went."""

    task_id: str
    task_seed: int
    reward: float
    passed: bool
    steps: int
    attack: dict[str, Any] | None = None  # info["attack"] of an attacked episode's end


@dataclass(frozen=True)
class Summary:
    """Episodes, mean reward and pass rate of one template (or of all)."""

    name: str
    episodes: int
    mean_reward: float
    pass_rate: float


def make_env(env_id: str, *, record: str | Path | None = None, **kwargs: Any) -> gymnasium.Env:
    """`gymnasium.make(env_id, **kwargs)`, with an officegym error naming the known ids,
    optionally recording every episode to `record` (JSONL)."""
    known = register_envs()
    if env_id not in known:
        ids = ", ".join(i for i in known if i.count(".") == 0) or "none"
        raise NotFound(
            f"no environment {env_id!r}; app environments: {ids} (see `officegym tasks`)"
        )
    env = gymnasium.make(env_id, **kwargs)
    return RecordEpisodes(env, record) if record is not None else env


def run_episode(
    env: gymnasium.Env,
    agent: Agent,
    *,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    agent_name: str | None = None,
) -> EpisodeResult:
    """Play one episode to its end (submit or truncation); a recorded episode names the
    agent by `agent_name`, when given."""
    recorder = recorder_of(env)
    if recorder is not None:
        named = {"agent": agent_name} if agent_name else {}
        recorder.extras = lambda: {**named, **_agent_extras(agent)}
    obs, info = env.reset(seed=seed, options=dict(options or {}))
    task = info["task"]
    agent.reset(env, obs, info)
    steps, reward, done = 0, 0.0, False
    while not done:
        obs, reward, terminated, truncated, info = env.step(agent.act(obs, info))
        steps += 1
        done = terminated or truncated
    passed = bool(info.get("grade", {}).get("passed", False))
    attack = info.get("attack")
    return EpisodeResult(task["id"], task["seed"], float(reward), passed, steps, attack)


def _agent_extras(agent: Agent) -> dict[str, Any]:
    """What a recorded episode keeps of its agent: an LLM agent's conversation (a copy of
    its chat messages, assistant text and parallel calls as the model gave them), why it
    gave up (``failure``), and, when its model's server failed, ``ended: agent_failure``
    with the ``cause`` (the submit it then made is not the policy's)."""
    extras: dict[str, Any] = {}
    messages = getattr(agent, "messages", None)
    if isinstance(messages, list):
        extras["conversation"] = json.loads(json.dumps(messages, default=str))
    if getattr(agent, "failure", None):
        extras["failure"] = agent.failure  # type: ignore[attr-defined]
    if cause := getattr(agent, "model_error", None):
        extras |= {"model_error": cause, "ended": "agent_failure", "cause": cause}
    return extras


def summarize(results: Iterable[EpisodeResult]) -> tuple[list[Summary], Summary]:
    """Per-template summaries (sorted by id) and the total."""
    groups: dict[str, list[EpisodeResult]] = defaultdict(list)
    everything: list[EpisodeResult] = []
    for r in results:
        groups[r.task_id].append(r)
        everything.append(r)
    rows = [_summary(name, groups[name]) for name in sorted(groups)]
    return rows, _summary("total", everything)


def _summary(name: str, results: list[EpisodeResult]) -> Summary:
    n = len(results)
    if n == 0:
        return Summary(name, 0, 0.0, 0.0)
    mean = sum(r.reward for r in results) / n
    return Summary(name, n, mean, sum(r.passed for r in results) / n)


def app_env_ids() -> list[str]:
    """The per-app env ids (``officegym/slack-v0`` ...)."""
    return [i for i in register_envs() if "." not in i.removeprefix(f"{NAMESPACE}/")]
