"""Rollouts as plans of episodes, played by workers: the part of scale-out that knows
nothing of Ray.

A rollout is a list of `EpisodeSpec` made up front by `plan_episodes`: episode ``i``
runs on env id ``ids[i % len(ids)]``, resets with seed ``seed + i`` and its agent is
seeded with ``seed + i``. What an episode does therefore depends only on its spec,
never on which worker runs it, in which order or after which other episode, so a
distributed run gives the same trajectories as `run_local` with the same seeds.

An `EpisodeWorker` holds the environments (made on first use per env id, reused
across episodes; up to one per concurrent call) and plays a spec into a trajectory
record: the `RecordEpisodes` line (task, observations, actions, rewards, grade) plus
the spec's index and seed, the agent, ``passed``, ``n_steps`` and the agent's
``failure``, if any. `officegym.gym.distributed` runs workers as Ray actors.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium

from officegym.gym.agents import make_agent
from officegym.gym.recording import RecordEpisodes
from officegym.gym.registration import env_id as env_id_of
from officegym.gym.rollout import make_env, run_episode
from officegym.tasks.attacks import check_choice

__all__ = [
    "EpisodeSpec",
    "EpisodeWorker",
    "RolloutSettings",
    "plan_episodes",
    "record_head",
    "run_local",
]


@dataclass(frozen=True)
class EpisodeSpec:
    """One planned episode: its place in the rollout, env id, reset seed and options."""

    index: int
    env_id: str
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RolloutSettings:
    """How every episode of a rollout is played (picklable: it travels to workers)."""

    agent: str = "oracle"
    agent_options: Mapping[str, Any] = field(default_factory=dict)
    mode: str = "tools"
    max_steps: int | None = None  # None: each task's own step limit
    faults: float = 0.0
    attack: str = "none"  # planted instructions: "mixed" or a goal id (officegym.gym.attack)

    def env_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of `gymnasium.make` for this rollout's envs."""
        if self.agent in ("openai", "oracle") and self.mode != "tools":
            raise ValueError(f"the {self.agent} agent plays tools mode; in browser mode use "
                             "browser-oracle, random or an agent of your own")  # fmt: skip
        kwargs: dict[str, Any] = {"mode": self.mode, "max_steps": self.max_steps}
        if self.faults:
            if self.mode != "tools":
                raise ValueError("fault injection is a tools-mode option (tool calls fail)")
            kwargs["faults"] = self.faults
        if self.attack != "none":
            kwargs["attack"] = check_choice(self.attack)
        return kwargs


def plan_episodes(
    episodes: int,
    *,
    env_ids: Sequence[str] = ("officegym/slack-v0",),
    templates: Sequence[str] = (),
    seed: int = 0,
    split: str = "train",
    difficulty: str | None = None,
) -> list[EpisodeSpec]:
    """`episodes` specs over `templates` (their own env ids) or else `env_ids`, round robin,
    reset seeds ``seed, seed + 1, ...``, tasks drawn from `split` (at `difficulty`, if
    given: the ``difficulty`` reset option)."""
    ids = [env_id_of(t) for t in templates] or list(env_ids)
    if not ids:
        raise ValueError("give at least one env id or template")
    if episodes < 1:
        raise ValueError(f"episodes must be at least 1, not {episodes}")
    options = {"split": split} | ({"difficulty": difficulty} if difficulty else {})
    return [EpisodeSpec(i, ids[i % len(ids)], seed + i, options) for i in range(episodes)]


class EpisodeWorker:
    """Plays episode specs with envs it keeps; safe to call from several threads at once
    (each call takes an env of its own from the pool)."""

    def __init__(self, settings: RolloutSettings) -> None:
        settings.env_kwargs()  # refuse bad settings here, not at the first episode
        self.settings = settings
        self._pools: dict[str, queue.SimpleQueue[_Recorded]] = {}
        self._lock = threading.Lock()
        self._all: list[_Recorded] = []

    def run(self, spec: EpisodeSpec) -> dict[str, Any]:
        """Play one episode and return its trajectory record."""
        recorded = self._acquire(spec.env_id)
        try:
            return recorded.play(spec, self.settings)
        finally:
            self._pools[spec.env_id].put(recorded)

    def _acquire(self, env_id: str) -> _Recorded:
        with self._lock:
            pool = self._pools.setdefault(env_id, queue.SimpleQueue())
        try:
            return pool.get_nowait()
        except queue.Empty:
            made = _Recorded(make_env(env_id, **self.settings.env_kwargs()))
            with self._lock:
                self._all.append(made)
            return made

    def close(self) -> None:
        """Close every env the worker made."""
        with self._lock:
            made, self._all, self._pools = self._all, [], {}
        for recorded in made:
            recorded.env.close()


class _Recorded:
    """An env wrapped in `RecordEpisodes`, its finished episodes caught in a list."""

    def __init__(self, env: gymnasium.Env) -> None:
        self.lines: list[dict[str, Any]] = []
        self.env = RecordEpisodes(env, sink=self.lines.append)

    def play(self, spec: EpisodeSpec, settings: RolloutSettings) -> dict[str, Any]:
        agent = make_agent(settings.agent, seed=spec.seed, **dict(settings.agent_options))
        self.lines.clear()
        result = run_episode(self.env, agent, seed=spec.seed, options=spec.options)
        (line,) = self.lines
        return {
            **record_head(spec, settings),
            **line,
            "env_id": spec.env_id,
            "passed": result.passed,
            "n_steps": result.steps,
            **({"attack": result.attack} if result.attack is not None else {}),
            "failure": getattr(agent, "failure", None),
            "model_error": getattr(agent, "model_error", None),
        }


def record_head(spec: EpisodeSpec, settings: RolloutSettings) -> dict[str, Any]:
    """What every episode record opens with, played or not: which episode, seed, agent, mode."""
    return {"index": spec.index, "seed": spec.seed, "agent": settings.agent, "mode": settings.mode}


def run_local(
    plan: Iterable[EpisodeSpec],
    settings: RolloutSettings,
    *,
    on_result: Callable[[dict[str, Any]], None] | None = None,
) -> Iterator[dict[str, Any]]:
    """Play `plan` in this process, one episode after another, yielding each record."""
    worker = EpisodeWorker(settings)
    try:
        for spec in plan:
            record = worker.run(spec)
            if on_result is not None:
                on_result(record)
            yield record
    finally:
        worker.close()
