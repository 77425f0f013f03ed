"""Rollouts per second in this process and on 1 and 2 Ray workers, tools and browser mode,
with the figures a projection to N machines rests on.

    python bench/rollout_scale.py [--episodes 400] [--browser-episodes 12]

Prints, per mode: episodes/s in one process (`run_local`) and with 1 and 2 Ray
workers (`RayRollout`, one env per worker); then the size and restore time of the
world image every worker needs, Ray's start time and the round trip of an empty actor
call (Ray's cost per episode: one call each). The oracle agent plays, so the figures
are the environment's and Ray's, not a model's.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from officegym.gym.distributed import RayRollout, init_ray
from officegym.gym.worker import RolloutSettings, plan_episodes, run_local
from officegym.world import world_image

TEMPLATES = ["slack.pin-message", "slack.set-status", "crm.pipeline-amount", "slack.dm-by-name"]


def timed_local(plan: list[Any], settings: RolloutSettings) -> float:
    list(run_local(plan[:4], settings))  # warm: envs, task caches
    start = time.perf_counter()
    records = list(run_local(plan, settings))
    assert len(records) == len(plan)
    return len(plan) / (time.perf_counter() - start)


def timed_ray(plan: list[Any], settings: RolloutSettings, workers: int) -> float:
    runner = RayRollout(settings, workers=workers)
    list(runner.run(plan[: 2 * workers]))  # warm: actors started, envs made
    start = time.perf_counter()
    records = list(runner.run(plan))
    elapsed = time.perf_counter() - start
    runner.close()
    assert len(records) == len(plan) and all(r["reward"] == 1.0 for r in records)
    return len(plan) / elapsed


def ray_call_ms(calls: int = 500) -> float:
    """The round trip of one actor method call that does nothing (Ray's own cost)."""
    import ray

    @ray.remote(num_cpus=1)
    class Idle:
        def ping(self) -> None:
            return None

    actor = Idle.remote()
    ray.get(actor.ping.remote())
    start = time.perf_counter()
    for _ in range(calls):
        ray.get(actor.ping.remote())
    elapsed = time.perf_counter() - start
    ray.kill(actor)
    return 1000 * elapsed / calls


def image_figures() -> dict[str, float]:
    image = world_image()
    start = time.perf_counter()
    from officegym.world import World

    World(image).close()
    return {"image_mb": len(image.data) / 1e6, "restore_ms": 1000 * (time.perf_counter() - start)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=400)
    parser.add_argument("--browser-episodes", type=int, default=12)
    args = parser.parse_args()
    start = time.perf_counter()
    init_ray(num_cpus=2)
    print(f"ray.init (local, 2 CPUs): {time.perf_counter() - start:.1f} s; cores: {os.cpu_count()}")
    img = image_figures()
    print(f"world image: {img['image_mb']:.1f} MB, restore {img['restore_ms']:.1f} ms")
    print(f"Ray actor call round trip: {ray_call_ms():.2f} ms")
    modes = [
        ("tools", "oracle", args.episodes),
        ("browser", "browser-oracle", args.browser_episodes),
    ]
    for mode, agent, n in modes:
        if n <= 0:
            continue
        settings = RolloutSettings(agent, mode=mode, max_steps=80)
        plan = plan_episodes(n, templates=TEMPLATES, seed=1000)
        local = timed_local(plan, settings)
        one = timed_ray(plan, settings, 1)
        two = timed_ray(plan, settings, 2)
        print(
            f"{mode}: {n} episodes; one process {local:.1f}/s; Ray 1 worker {one:.1f}/s, "
            f"2 workers {two:.1f}/s (x{two / one:.2f})"
        )


if __name__ == "__main__":
    main()
