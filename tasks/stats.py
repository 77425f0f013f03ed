"""How much task supply the templates give: per template, over task seeds and worlds,
the distinct instances, the length of the reference solution (the oracle) and the
spread of difficulty. `officegym tasks --stats` prints it; `bench/instances.py` also
validates the instances it counts.

Two tasks are the same instance when they give the same goal, the same reference
solution (tool calls with their arguments) and the same expected answer (`instance_key`),
whatever the seed, persona or world that produced them: the same work counted once.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from officegym.tasks.base import Task, get_template, make_task

__all__ = [
    "TemplateStats",
    "difficulty_of",
    "instance_key",
    "template_stats",
    "totals",
]

WorldKey = tuple[str, int]  # (scenario, world seed)


def instance_key(task: Task) -> str:
    """What makes an instance distinct: its goal, its reference calls and its answer."""
    work = [[c.name, c.arguments] for c in task.solution]
    return json.dumps([task.id, task.goal, work, task.answer], sort_keys=True, default=str)


def difficulty_of(task: Task) -> str:
    """The difficulty of one instance: the level it was built at (a template without knobs
    has only its declared one)."""
    return task.difficulty


@dataclass
class TemplateStats:
    """What one template gave over its seeds and worlds."""

    template_id: str
    tried: int = 0  # (seed, world) pairs built
    unbuildable: int = 0  # pairs where the world had nothing for the template (LookupError)
    keys: set[str] = field(default_factory=set, repr=False)
    lengths: list[int] = field(default_factory=list, repr=False)  # per distinct instance
    difficulty: Counter[str] = field(default_factory=Counter)  # per distinct instance
    worlds: set[WorldKey] = field(default_factory=set, repr=False)

    @property
    def instances(self) -> int:
        return len(self.keys)

    def add(self, task: Task) -> bool:
        """Count `task`; True if it is a new instance."""
        key = instance_key(task)
        if key in self.keys:
            return False
        self.keys.add(key)
        self.lengths.append(len(task.solution))
        self.difficulty[difficulty_of(task)] += 1
        return True

    def to_dict(self) -> dict[str, Any]:
        return {
            "instances": self.instances,
            "tried": self.tried,
            "unbuildable": self.unbuildable,
            "oracle_calls": _spread(self.lengths),
            "difficulty": dict(sorted(self.difficulty.items())),
        }


def template_stats(
    template_id: str, seeds: Iterable[int], worlds: Sequence[WorldKey] = (("default", 0),)
) -> TemplateStats:
    """Build `template_id` at each of its levels for every seed on every world and count
    what it gave."""
    levels = get_template(template_id).levels  # NotFound for an unknown id, before any world
    out = TemplateStats(template_id)
    pairs = [(level, seed) for level in levels for seed in seeds]
    for scenario, world_seed in worlds:
        for level, seed in pairs:
            out.tried += 1
            try:
                task = make_task(template_id, seed, scenario, world_seed, level)
            except LookupError:
                out.unbuildable += 1
                continue
            out.add(task)
            out.worlds.add((scenario, world_seed))
    return out


def totals(stats: Sequence[TemplateStats]) -> dict[str, Any]:
    """The sums over templates (oracle lengths pooled over every instance)."""
    difficulty: Counter[str] = Counter()
    for s in stats:
        difficulty.update(s.difficulty)
    return {
        "templates": len(stats),
        "instances": sum(s.instances for s in stats),
        "tried": sum(s.tried for s in stats),
        "unbuildable": sum(s.unbuildable for s in stats),
        "oracle_calls": _spread([n for s in stats for n in s.lengths]),
        "difficulty": dict(sorted(difficulty.items())),
    }


def _spread(values: Sequence[int]) -> dict[str, float | int | None]:
    if not values:
        return {"min": None, "median": None, "max": None}
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}
