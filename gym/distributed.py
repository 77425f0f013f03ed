"""Rollouts over Ray: episodes of a plan spread over actors, each an `EpisodeWorker`
holding several environments (tools or browser mode).

`RayRollout` starts `workers` actors (``max_concurrency=envs_per_worker``: each call runs
in a thread of the actor with an env of its own, which pays in browser mode, where
episodes wait on Chromium) and keeps every actor's threads busy until the plan is done,
yielding records as they finish. A local Ray is started when none is running
(``ray.init(address=...)`` joins an existing cluster instead); nothing here schedules
work that Ray does not.

Failures: an actor that dies (a crash, an OOM kill, a lost node; ``RayActorError``) is
replaced by a new one, once per death, and each of its unfinished episodes is sent
again, up to `retries` times; an episode is yielded exactly once, when its first
successful run returns, so nothing is lost or counted twice. An actor that cannot even
start (its constructor or the import of officegym fails) would fail the same way on
every try: the run stops at once with `WorkersFailed` and the actor's error. An episode
whose own code raises (``RayTaskError``) is not retried, since it would raise again: it
is yielded as a failed record (reward 0, ``failure`` the error). More workers than the
cluster has CPUs for would leave some waiting forever: they are cut to what fits, with a
warning that says so. The `ray` package is the ``ray`` extra (``pip install
officegym[ray]``), imported only here.

Workers import the installed officegym: Ray puts the driver's working directory on every
worker's path, where a checkout's own ``officegym/`` folder (which holds only part of the
package) would shadow it, so `init_ray` starts Ray from a neutral directory then.

Checked against ray 2.60: `ray.remote(cls).options(max_concurrency=, num_cpus=,
max_restarts=0)`, `ray.wait(refs, num_returns=1)`, `ray.exceptions.RayActorError` (the
base of `ActorDiedError`) and `RayTaskError`, `ray.kill(actor, no_restart=True)`.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import warnings
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from officegym.gym.worker import EpisodeSpec, EpisodeWorker, RolloutSettings, record_head

__all__ = ["RayRollout", "WorkersFailed", "failed_record", "init_ray"]


class WorkersFailed(RuntimeError):
    """Rollout workers could not start; the message carries the first worker's error."""


def init_ray(address: str | None = None, *, num_cpus: int | None = None) -> None:
    """Start (or join, with `address`) Ray unless this process is already connected."""
    import ray

    if ray.is_initialized():
        return
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    if address is None:
        kwargs["num_cpus"] = num_cpus or os.cpu_count() or 1
    with _neutral_directory():
        ray.init(address=address, **kwargs)


@contextlib.contextmanager
def _neutral_directory() -> Iterator[None]:
    """Run the block from a directory that cannot shadow the installed package when the
    working directory holds an ``officegym`` folder other than the one imported here
    (Ray adds the driver's working directory to every worker's ``sys.path``)."""
    import officegym

    here = os.path.abspath(os.curdir)
    local = os.path.join(here, "officegym")
    installed = os.path.dirname(os.path.abspath(officegym.__file__))
    if not os.path.isdir(local) or os.path.samefile(local, installed):
        yield
        return
    with tempfile.TemporaryDirectory(prefix="officegym-ray-") as neutral:
        os.chdir(neutral)
        try:
            yield
        finally:
            os.chdir(here)


def _fitting_workers(workers: int, cpus_per_worker: float) -> int:
    """How many of `workers` the cluster's CPUs can hold at once (at least one); warns
    when that is fewer, since the rest would wait for CPUs that never free up."""
    import ray

    cpus = float(ray.cluster_resources().get("CPU", 0.0))
    fits = max(1, int(cpus // cpus_per_worker)) if cpus_per_worker > 0 else workers
    if workers <= fits:
        return workers
    warnings.warn(
        f"{workers} workers x {cpus_per_worker:g} CPU need more than the {cpus:g} CPU(s) "
        f"Ray has: running {fits} worker(s); give fewer --workers, a smaller "
        "cpus_per_worker, or start Ray with more CPUs (ray.init(num_cpus=...))",
        RuntimeWarning,
        stacklevel=3,
    )
    return fits


@dataclass
class _Slot:
    """One actor: its handle, generation (bumped when replaced) and episodes in flight."""

    handle: Any
    generation: int = 0
    busy: int = 0


class RayRollout:
    """Runs plans of episodes on `workers` Ray actors with `envs_per_worker` envs each."""

    def __init__(
        self,
        settings: RolloutSettings,
        *,
        workers: int = 2,
        envs_per_worker: int = 1,
        retries: int = 2,
        cpus_per_worker: float = 1.0,
    ) -> None:
        import ray

        if workers < 1 or envs_per_worker < 1 or retries < 0:
            raise ValueError("workers and envs_per_worker must be >= 1, retries >= 0")
        settings.env_kwargs()  # bad settings fail here, not in every actor
        self.settings, self.retries = settings, retries
        self.envs_per_worker = envs_per_worker
        self._actor_class = ray.remote(EpisodeWorker).options(
            max_concurrency=envs_per_worker, num_cpus=cpus_per_worker, max_restarts=0
        )
        workers = _fitting_workers(workers, cpus_per_worker)
        self.slots = [_Slot(self._new_actor()) for _ in range(workers)]
        self.replaced = 0
        self.retried = 0

    @property
    def actors(self) -> list[Any]:
        """The actor handles now in use."""
        return [s.handle for s in self.slots]

    def _new_actor(self) -> Any:
        return self._actor_class.remote(self.settings)

    def run(
        self,
        plan: Sequence[EpisodeSpec],
        on_result: Callable[[dict[str, Any]], None] | None = None,
    ) -> Iterator[dict[str, Any]]:
        """Yield each episode's record as it finishes (in finishing order)."""
        import ray

        pending = deque((spec, 0) for spec in plan)
        flight: dict[Any, tuple[EpisodeSpec, int, int, int]] = {}
        while pending or flight:
            self._dispatch(pending, flight)
            (ready,), _ = ray.wait(list(flight), num_returns=1)
            spec, attempt, index, generation = flight.pop(ready)
            slot = self.slots[index]
            if slot.generation == generation:
                slot.busy -= 1
            record = self._collect(ready, spec, attempt, index, generation, pending)
            if record is not None:
                if on_result is not None:
                    on_result(record)
                yield record

    def _dispatch(self, pending: deque, flight: dict) -> None:
        """Give every actor's free threads an episode."""
        for index, slot in enumerate(self.slots):
            while pending and slot.busy < self.envs_per_worker:
                spec, attempt = pending.popleft()
                ref = slot.handle.run.remote(spec)
                flight[ref] = (spec, attempt, index, slot.generation)
                slot.busy += 1

    def _collect(
        self, ref: Any, spec: EpisodeSpec, attempt: int, index: int, generation: int,
        pending: deque,
    ) -> dict[str, Any] | None:  # fmt: skip
        """The record of a finished call, or None when its episode goes round again."""
        import ray

        try:
            return ray.get(ref)
        except ray.exceptions.RayActorError as exc:
            if exc.actor_init_failed:
                raise WorkersFailed(f"a rollout worker could not start: {exc}") from exc
            self._replace(index, generation)
            if attempt < self.retries:
                self.retried += 1
                pending.appendleft((spec, attempt + 1))
                return None
            return failed_record(spec, self.settings, f"actor died {attempt + 1} times: {exc}")
        except ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None) or exc
            return failed_record(spec, self.settings, f"episode raised: {cause!r}")

    def _replace(self, index: int, generation: int) -> None:
        """A new actor in place of a dead one (once, however many of its calls failed)."""
        slot = self.slots[index]
        if slot.generation != generation:
            return
        import ray

        ray.kill(slot.handle, no_restart=True)
        self.slots[index] = _Slot(self._new_actor(), generation + 1)
        self.replaced += 1

    def close(self) -> None:
        """Stop the actors (their envs and browsers go with their processes)."""
        import ray

        for slot in self.slots:
            ray.kill(slot.handle, no_restart=True)
        self.slots = []


def failed_record(spec: EpisodeSpec, settings: RolloutSettings, why: str) -> dict[str, Any]:
    """The record of an episode that could not be played (``ended: env_fault``, the
    ``cause`` and ``failure`` say why): no policy's reward, left out of the means."""
    return {
        **record_head(spec, settings),
        "env_id": spec.env_id,
        "task": None,
        "observation": None,
        "steps": [],
        "reward": 0.0,
        "grade": None,
        "complete": False,
        "passed": False,
        "n_steps": 0,
        "failure": why,
        "ended": "env_fault",
        "cause": why,
    }
