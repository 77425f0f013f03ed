"""What every officegym env shares about an episode, whatever the agent acts through:
which templates an env samples, how reset picks a task, grading the final state,
and the text limits of goal, persona and error fields.

Tools mode (`tools_env`) and browser mode (`browser_env`) both call these, so
the same ``reset(seed=..., options=...)`` gives the same task in either mode
and an episode is graded the same way.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.errors import NotFound
from officegym.tasks import Grade, Task, grade, load_templates, make_task
from officegym.tasks.base import TEMPLATES, get_template, task_level
from officegym.tasks.difficulty import Difficulty, level_name
from officegym.tasks.instances import InstanceStore, instance
from officegym.tasks.splits import SPLITS, find_seed, split_of
from officegym.template_index import template_ids
from officegym.world import World

__all__ = [
    "ERROR_CHARS",
    "GOAL_CHARS",
    "OPTION_KEYS",
    "PERSONA_CHARS",
    "choose_task",
    "clip",
    "grade_world_state",
    "persona_label",
    "refuse_pickling",
    "select_templates",
    "task_info",
]

GOAL_CHARS = 4_000
PERSONA_CHARS = 200
ERROR_CHARS = 2_000
# `choose_task` reads the first four; `officegym.gym.worlds` the world's two.
OPTION_KEYS = frozenset({"task", "task_seed", "split", "difficulty", "scenario", "world_seed"})


def select_templates(app: str | None, task: str | None) -> tuple[str, ...]:
    """The template ids an env samples from: one app's, or the single task's."""
    if (app is None) == (task is None):
        raise ValueError("give exactly one of app='<app>' or task='<template id>'")
    if task is not None:
        try:
            get_template(task)  # imports only the module declaring it
        except NotFound:
            raise ValueError(f"unknown task template {task!r}; see `officegym tasks`") from None
        return (task,)
    ids = _app_templates(app)
    if not ids:
        templates = load_templates()
        apps = sorted({tpl.app for tpl in templates.values()})
        raise ValueError(f"app {app!r} has no task templates; apps with templates: {apps}")
    return ids


def _app_templates(app: str | None) -> tuple[str, ...]:
    """The app's template ids, importing only the modules that declare them (the index's
    and any registered at run time), not every app's; a module that fails is left out."""
    declared = {t for t in template_ids() if t.split(".", 1)[0] == app}
    declared |= {t for t, tpl in TEMPLATES.items() if tpl.app == app}
    ids = []
    for tid in sorted(declared):
        try:
            get_template(tid)
        except NotFound:  # its module failed to import (warned) and is left out
            continue
        ids.append(tid)
    return tuple(ids)


def choose_task(
    rng: np.random.Generator,
    templates: tuple[str, ...],
    default_split: str,
    options: Mapping[str, Any],
    *,
    scenario: str,
    world_seed: int,
    difficulty: Difficulty | None = None,
    curriculum: Any = None,
    store: InstanceStore | None = None,
) -> tuple[str, str, int, Difficulty | None]:
    """Template, split, task seed and level (None: the template's own) of a reset. Two
    draws happen whatever the options say (so a seeded sequence of resets does not depend
    on them): a template, and where the search for a seed of the split starts. A given
    ``task_seed`` is that instance, in whichever split it is; naming a ``split`` it is not
    in is an error. A ``difficulty`` (option, else the env's) samples only the templates
    that can be built at it; a `curriculum` (`officegym.gym.curriculum`) picks the
    template and level itself unless the options name them. With an instance `store`
    (`officegym.tasks.instances`) the seed is drawn from the store's seeds of the split,
    so the instance is read, not built."""
    unknown = set(options) - OPTION_KEYS
    if unknown:
        raise ValueError(f"unknown reset option(s) {sorted(unknown)}; use {sorted(OPTION_KEYS)}")
    split = options.get("split") or default_split
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; use one of {sorted(SPLITS)}")
    level = _level(options.get("difficulty", difficulty))
    pool = templates
    if "task" not in options:
        pool = _on_world(_offering(templates, level), scenario, world_seed)
    pick, start = int(rng.integers(len(pool))), int(rng.integers(2**63))
    template_id = options.get("task") or pool[pick]
    if template_id not in templates:
        raise ValueError(f"task {template_id!r} is not one of this env's {templates}")
    if curriculum is not None and "task" not in options and level is None:
        template_id, level = curriculum.choose(rng)
    built = task_level(get_template(template_id), level)  # a level it has, or an error
    if "task_seed" not in options and store is not None:
        return template_id, split, _stored_seed(store, template_id, built, split, start), level
    if "task_seed" not in options:
        seed = find_seed(
            template_id, split, start, scenario=scenario, world_seed=world_seed, difficulty=level
        )
        return template_id, split, seed, level
    task_seed = options["task_seed"]
    if not isinstance(task_seed, int) or isinstance(task_seed, bool):
        raise ValueError(f"task_seed must be an int, not {task_seed!r}")
    try:
        task = instance(template_id, task_seed, scenario, world_seed, level, store)
        actual = split_of(task)
    except LookupError as exc:
        raise ValueError(f"task seed {task_seed} of {template_id}: {exc}") from None
    if options.get("split") not in (None, actual):
        raise ValueError(
            f"task seed {task_seed} of {template_id} is a {actual} instance, not "
            f"{options['split']}; officegym.tasks.splits.split_seeds lists a split's seeds"
        )
    return template_id, actual, task_seed, level


def _stored_seed(
    store: InstanceStore, template_id: str, level: Difficulty, split: str, start: int
) -> int:
    """The seed of the store's `split` instances of the template that `start` picks."""
    seeds = store.seeds(template_id, level, split)  # type: ignore[arg-type]
    if not seeds:
        raise ValueError(
            f"the instance store of world {store.scenario}/{store.world_seed} holds no {split} "
            f"instance of {template_id} at {level}; add some: officegym instances build "
            f"--task {template_id} --scenario {store.scenario} --world-seed {store.world_seed}"
        )
    return seeds[start % len(seeds)]


def _level(value: object) -> Difficulty | None:
    """The level a ``difficulty`` option or env kwarg names (None: each template's own)."""
    return None if value is None else level_name(value)


def _on_world(templates: tuple[str, ...], scenario: str, world_seed: int) -> tuple[str, ...]:
    """The templates that build on this world: a template that declares `needs` is left
    out of the draw on a world too small for it (the 25-person startup)."""
    pool = tuple(
        t for t in templates if not get_template(t).needs or _builds_on(t, scenario, world_seed)
    )
    if not pool:
        raise ValueError(f"none of this env's templates builds on world {scenario}/{world_seed}")
    return pool


@functools.cache
def _builds_on(template_id: str, scenario: str, world_seed: int) -> bool:
    """Whether the template builds on the world for any of a few seeds (its builder raises
    LookupError when the world lacks what it needs)."""
    for seed in range(8):
        try:
            make_task(template_id, seed, scenario, world_seed)
        except LookupError:
            continue
        return True
    return False


def _offering(templates: tuple[str, ...], level: Difficulty | None) -> tuple[str, ...]:
    """The templates that can be built at `level` (all of them for None)."""
    if level is None:
        return templates
    pool = tuple(t for t in templates if level in get_template(t).levels)
    if not pool:
        raise ValueError(f"none of this env's templates can be built at difficulty {level}")
    return pool


def task_info(task: Task, split: str) -> dict[str, Any]:
    """The ``task`` entry of a reset's info: the instance, its split and its world."""
    world = {"scenario": task.scenario, "world_seed": task.world_seed}
    return {**task.describe(), "split": split, **world}


def grade_world_state(world: World, task: Task, answer: str | None) -> Grade:
    """Grade the world's current database against its seeded image."""
    with world.initial_connection() as before, world.engine.connect() as after:
        return grade(task, before, after, answer)


def persona_label(session: Session, handle: str) -> str:
    """``@handle (Full Name)`` of the persona, as the goal's reader sees it."""
    person = session.scalar(select(Person).where(Person.handle == handle))
    name = person.name if person is not None else handle
    return clip(f"@{handle} ({name})", PERSONA_CHARS)


def clip(text: str, n: int) -> str:
    """`text` cut to `n` characters, the last one an ellipsis when cut."""
    return text if len(text) <= n else text[: n - 1] + "…"


def refuse_pickling(env: object) -> None:
    """Raise the error a pickled env gives: it holds a live database (and in browser mode a
    server and a browser), so it is rebuilt where it runs, from a factory."""
    name = type(env).__name__
    raise TypeError(
        f"{name} cannot be pickled: it holds a live world database (and in browser mode a "
        "web server and a browser). Pass a factory that makes it where it runs instead, e.g. "
        "gymnasium.vector.AsyncVectorEnv([lambda: gymnasium.make('officegym/slack-v0')] * 4, "
        "shared_memory=False), or a Ray actor that calls gymnasium.make itself "
        "(officegym.gym.distributed)."
    )
