"""How many distinct task instances validate: every template x every world (scenarios x
world seeds 0..K-1) x task seeds 0..N-1, at every level of a template with difficulty knobs.

An instance is distinct by (template, goal, reference calls, answer) across all worlds
(`officegym.tasks.stats.instance_key`); it validates when its reference solution, replayed
on its world, scores 1.0 and passes. Worlds are visited interleaved by scenario
(default/0, startup/0, enterprise/0, default/1, ...); each world's templates are all built
over the N seeds, and a seeded random share (`--sample`) of its new distinct instances is
replayed. The run stops after the first world that ends past `--budget` seconds of this
process's CPU time (`--clock wall` for wall-clock time), so a shared machine measures
what the work costs on one core.

It prints what it counted (distinct instances built; replayed and passed; per world the
new distinct instances times the pass rate replayed there) and, when it stopped early or
sampled, the extrapolation to the whole space (`extrapolate`: each unvisited world counts
as its scenario's last visited one, which already met the most earlier instances).

    python bench/instances.py [--seeds 100] [--world-seeds 8] [--budget 300] [--sample 0.2]
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from officegym.seed_data.scenario import scenario_names
from officegym.tasks import load_templates, make_task
from officegym.tasks.base import get_template
from officegym.tasks.stats import instance_key
from officegym.tasks.validate import play
from officegym.world import World, world_image

CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}


@dataclass
class WorldCount:
    scenario: str
    world_seed: int
    built: int = 0  # cells built (template x seed)
    distinct: int = 0  # new distinct instances
    replayed: int = 0
    passed: int = 0
    seconds: float = 0.0

    @property
    def estimate(self) -> float:
        """Distinct instances that validate on this world, at the pass rate replayed."""
        rate = self.passed / self.replayed if self.replayed else 0.0
        return self.distinct * rate


def count_world(
    scenario: str,
    world_seed: int,
    ids: list[str],
    seeds: int,
    sample: float,
    seen: set[str],
    clock: Callable[[], float] = time.process_time,
) -> WorldCount:
    """Build every template over the seeds on one world; replay a sample of the new ones."""
    t0 = clock()
    out = WorldCount(scenario, world_seed)
    world = World(world_image(scenario, world_seed))
    pick = random.Random(f"{scenario}:{world_seed}:sample")
    for tid in ids:
        for level, seed in itertools.product(get_template(tid).levels, range(seeds)):
            out.built += 1
            try:
                task = make_task(tid, seed, scenario, world_seed, level)
            except LookupError:
                continue
            key = instance_key(task)
            if key in seen:
                continue
            seen.add(key)
            out.distinct += 1
            if pick.random() < sample:
                graded, errors = play(world, task)
                out.replayed += 1
                out.passed += graded.passed and graded.reward == 1.0 and not errors
        make_task.cache_clear()  # bounded memory: instances are counted by key
    world.close()
    out.seconds = clock() - t0
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=100, help="task seeds per template and world")
    ap.add_argument("--world-seeds", type=int, default=8, help="world seeds per scenario")
    ap.add_argument("--scenarios", default=",".join(scenario_names()))
    ap.add_argument("--budget", type=float, default=300.0, help="seconds; stops after a world")
    ap.add_argument("--sample", type=float, default=0.2, help="share of instances replayed")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    args = ap.parse_args()
    clock = CLOCKS[args.clock]
    ids = sorted(load_templates())
    scenarios = args.scenarios.split(",")
    space = [(sc, ws) for ws in range(args.world_seeds) for sc in scenarios]
    seen: set[str] = set()
    done: list[WorldCount] = []
    start = clock()
    levels = sum(len(get_template(t).levels) for t in ids)
    print(
        f"{len(ids)} templates ({levels} template levels) x {len(space)} worlds x {args.seeds} "
        f"seeds = {levels * len(space) * args.seeds:,} cells; replaying {args.sample:.0%}"
    )
    for sc, ws in space:
        if clock() - start > args.budget:
            break
        c = count_world(sc, ws, ids, args.seeds, args.sample, seen, clock)
        done.append(c)
        print(
            f"  {sc}/{ws}: {c.distinct:,} new distinct of {c.built:,} built; "
            f"replayed {c.replayed:,}, passed {c.passed:,}; {c.seconds:.0f} s"
        )
    report(done, space, clock() - start)


def report(done: list[WorldCount], space: list[tuple[str, int]], seconds: float) -> None:
    distinct = sum(c.distinct for c in done)
    replayed, passed = sum(c.replayed for c in done), sum(c.passed for c in done)
    print(
        f"counted in {seconds:.0f} s over {len(done)} of {len(space)} worlds: "
        f"{distinct:,} distinct instances; {replayed:,} replayed, {passed:,} validated "
        f"({passed / max(replayed, 1):.2%})"
    )
    counted = sum(c.estimate for c in done)
    print(f"distinct instances that validate on the worlds visited: {counted:,.0f}")
    if len(done) == len(space) and replayed == distinct:
        return  # counted exactly, nothing to extrapolate
    total, how = extrapolate(done, space)
    print(f"extrapolated to all {len(space)} worlds: {total:,.0f} ({how})")


def extrapolate(done: list[WorldCount], space: list[tuple[str, int]]) -> tuple[float, str]:
    """Visited worlds as counted; each unvisited world of a scenario as its last visited
    world (the one that met the most earlier instances: a template whose goals do not
    depend on the world adds nothing new after the first). Where a scenario was visited
    only on its first world, that count is scaled by the second-to-first ratio measured on
    the other scenarios (1.0, said so, if none has two)."""
    by: dict[str, list[WorldCount]] = defaultdict(list)
    for c in done:
        by[c.scenario].append(c)
    ratios = [v[1].estimate / v[0].estimate for v in by.values() if len(v) > 1 and v[0].estimate]
    ratio = statistics.mean(ratios) if ratios else 1.0
    total, notes = sum(c.estimate for c in done), []
    for sc in dict.fromkeys(s for s, _ in space):
        left = sum(1 for s, _ in space if s == sc) - len(by[sc])
        if not by[sc]:
            notes.append(f"{sc}: no world visited, left out")
        elif left:
            last = by[sc][-1].estimate * (ratio if len(by[sc]) == 1 else 1.0)
            total += left * last
    basis = f"later worlds as the last visited; second/first ratio {ratio:.2f}"
    if not ratios:
        basis += " (assumed: no scenario visited twice)"
    return total, "; ".join([basis, *notes])


if __name__ == "__main__":
    main()
