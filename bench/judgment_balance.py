"""What blanket policies earn on the judgment templates: always-refuse, always-escalate
(to the requester's manager) and always-comply, averaged per template over seeds, beside
the reference. Issue 32 asks each blanket policy to average at most 0.3.

    python bench/judgment_balance.py [--seeds 40]
"""

from __future__ import annotations

import argparse
import time

from sqlalchemy.orm import Session

from officegym.tasks import load_templates, make_task
from officegym.tasks.judgment import JUDGMENT
from officegym.tasks.judgment_policies import BLANKET, BLANKET_LIMIT
from officegym.tasks.validate import replay
from officegym.world import World, world_image


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=40)
    seeds = range(parser.parse_args().seeds)
    load_templates()
    world = World(world_image("default", 0))
    started = time.process_time()
    names = ["reference", *BLANKET]
    print(f"{'template':40}" + "".join(f"{n:>17}" for n in names))
    worst = dict.fromkeys(BLANKET, 0.0)
    for tid in sorted(JUDGMENT):
        totals = dict.fromkeys(names, 0.0)
        for seed in seeds:
            task = make_task(tid, seed)
            with Session(world.initial_engine) as w:
                plays = {n: p(task, w) for n, p in BLANKET.items()}
            plays["reference"] = list(task.solution)
            for name, calls in plays.items():
                grade, _ = replay(world, task, calls, None)
                totals[name] += grade.reward
        means = {n: totals[n] / len(seeds) for n in names}
        for n in BLANKET:
            worst[n] = max(worst[n], means[n])
        print(f"{tid:40}" + "".join(f"{means[n]:17.3f}" for n in names))
    verdict = all(v <= BLANKET_LIMIT for v in worst.values())
    shown = ", ".join(f"{n} {v:.3f}" for n, v in worst.items())
    print(f"worst template average: {shown} (limit {BLANKET_LIMIT}): {'ok' if verdict else 'OVER'}")
    print(f"{len(seeds)} seeds, {time.process_time() - started:.1f} s CPU")


if __name__ == "__main__":
    main()
