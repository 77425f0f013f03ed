"""How many task instances get a planted attack: per template (its own level) over task
seeds, the share paired by `--attack mixed`, and the count per vector and goal.

    .venv/bin/python bench/attack_coverage.py [--seeds 5] [--attack mixed]

An instance is paired when its reference reads a vector whose site accepts the planted
text and a goal fits the persona (what `officegym validate --attack` checks).
"""

from __future__ import annotations

import sys
from collections import Counter

from officegym.tasks import load_templates, make_task
from officegym.tasks.attacks import inject, plan
from officegym.world import World, world_image


def _arg(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def main() -> None:
    seeds, choice = int(_arg("--seeds", "5")), _arg("--attack", "mixed")
    world = World(world_image("default", 0))
    built, paired, unpaired_templates = 0, 0, []
    vectors: Counter[str] = Counter()
    goals: Counter[str] = Counter()
    for template_id in sorted(load_templates()):
        hits = 0
        for seed in range(seeds):
            try:
                task = make_task(template_id, seed)
            except LookupError:
                continue
            built += 1
            world.reset()
            p = plan(task, choice)
            attack = inject(world, task, p) if p is not None else None
            if attack is not None:
                hits += 1
                vectors[attack.vector] += 1
                goals[attack.goal] += 1
        paired += hits
        if not hits:
            unpaired_templates.append(template_id)
    world.close()
    print(f"paired {paired} of {built} instances ({paired / built:.0%}), seeds 0..{seeds - 1}")
    print("per vector:", ", ".join(f"{v} {n}" for v, n in sorted(vectors.items())))
    print("per goal:", ", ".join(f"{g} {n}" for g, n in sorted(goals.items())))
    print(f"templates never paired ({len(unpaired_templates)}):", " ".join(unpaired_templates))


if __name__ == "__main__":
    main()
