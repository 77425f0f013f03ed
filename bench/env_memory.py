"""Memory per further tools env, in one process: what the Nth env adds once the first
holds the process's shared parts (the world image, its one seeded copy, the tools).

For each app, one env is made and plays an oracle episode (so its grader has read the
seeded state), then ``--envs`` more are made and each plays one; the figure is the rise of
this process's proportional set size (PSS, from /proc/self/smaps_rollup; RSS elsewhere)
divided by the number of further envs. The world image's size is printed beside it: a
further env holds one live copy of it, so that is the floor of this design.

    python bench/env_memory.py [--apps slack crm] [--envs 20]
"""

from __future__ import annotations

import argparse
import gc
import resource
from pathlib import Path

ROLLUP = Path("/proc/self/smaps_rollup")


def resident_kb() -> int:
    """This process's PSS in kB (its peak RSS where /proc has no rollup)."""
    if ROLLUP.exists():
        for line in ROLLUP.read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def per_env_mb(app: str, envs: int) -> float:
    """MB the process grows by per further env of `app` that played one episode."""
    from officegym.gym import OfficeEnv, OracleAgent, run_episode

    def one(seed: int) -> OfficeEnv:
        env = OfficeEnv(app=app, max_steps=200)
        run_episode(env, OracleAgent(), seed=seed)
        return env

    kept = [one(0)]
    gc.collect()
    before = resident_kb()
    kept += [one(i + 1) for i in range(envs)]
    gc.collect()
    grown = resident_kb() - before
    for env in kept:
        env.close()
    return grown / envs / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--apps", nargs="+", default=["slack", "booking", "sheets", "crm"])
    parser.add_argument("--envs", type=int, default=20)
    args = parser.parse_args()
    from officegym.world import world_image

    image = len(world_image("default", 0).data) / 2**20
    print(f"world image: {image:.1f} MB (a further env's live copy)")
    for app in args.apps:
        print(f"{app}: {per_env_mb(app, args.envs):.1f} MB per further env")


if __name__ == "__main__":
    main()
