"""Train and test splits, by task instance.

A task seed picks one instance of a template; which split the instance belongs
to is a property of the instance itself (`split_of`): a stable hash of what must
be done — the template, the goal text, the reference solution's calls and the
expected answer — puts about a fifth of a template's instances in the test
split. So the same work never appears in both splits, whichever seeds or
personas produce it (a question asked by two people with the same answer is one
instance), and a seed means the same instance and the same split on every
machine.

Sampling a split tries seeds from a deterministic sequence and keeps the first
whose instance falls in it (`find_seed`); `split_seeds` lists a split's seeds
in order, for fixed evaluation sets.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from typing import Literal

from officegym.tasks.base import Task, make_task

__all__ = ["SEED_SPACE", "SPLITS", "TEST_SHARE", "Split", "find_seed", "split_of", "split_seeds"]

Split = Literal["train", "test"]
SPLITS: tuple[Split, ...] = ("train", "test")
TEST_SHARE = 0.2
SEED_SPACE = 2**31  # task seeds are drawn from [0, SEED_SPACE)
TRIES = 1_000


def split_of(task: Task) -> Split:
    """The split of an instance, decided by what must be done (not by seed or persona)."""
    work = [[c.name, c.arguments] for c in task.solution]
    key = json.dumps([task.id, task.goal, work, task.answer], sort_keys=True, default=str)
    digest = hashlib.sha256(key.encode()).digest()
    return "test" if int.from_bytes(digest[:8], "big") < TEST_SHARE * 2**64 else "train"


def find_seed(
    template_id: str,
    split: Split,
    start: int,
    *,
    scenario: str = "default",
    world_seed: int = 0,
    difficulty: str | None = None,
) -> int:
    """The first seed, in the sequence `start` names, whose instance (at `difficulty`,
    None: the template's own level) is in `split` (seeds the template cannot build on this
    world are passed over)."""
    candidates = random.Random(start)
    for _ in range(TRIES):
        seed = candidates.randrange(SEED_SPACE)
        if _split_of_seed(template_id, seed, scenario, world_seed, difficulty) == split:
            return seed
    raise LookupError(
        f"template {template_id} gave no {split} instance in {TRIES} seeds on world "
        f"{scenario}/{world_seed}: it needs more distinct goals"
    )


def split_seeds(
    template_id: str,
    split: Split,
    count: int | None = None,
    *,
    scenario: str = "default",
    world_seed: int = 0,
    difficulty: str | None = None,
) -> Iterator[int]:
    """The seeds 0, 1, 2, ... whose instances (at `difficulty`, None: the template's own
    level) are in `split` (a fixed evaluation order): the first `count` of them, or with
    None as many as are asked for (iterate it with `itertools.islice`: it stops only when
    the template gives no such instance in `TRIES` more seeds, with a LookupError)."""
    if count is not None and count < 0:
        raise ValueError(f"count must be 0 or more, not {count}")
    seed = misses = found = 0
    while misses < TRIES:
        if count is not None and found == count:
            return
        if _split_of_seed(template_id, seed, scenario, world_seed, difficulty) == split:
            misses = 0
            found += 1
            yield seed
        else:
            misses += 1
        seed += 1
    raise LookupError(f"template {template_id} gave no {split} instance in {TRIES} more seeds")


def _split_of_seed(
    template_id: str, seed: int, scenario: str, world_seed: int, difficulty: str | None = None
) -> Split | None:
    try:
        return split_of(make_task(template_id, seed, scenario, world_seed, difficulty))  # type: ignore[arg-type]
    except LookupError:  # this seed found nothing to build on in this world
        return None
