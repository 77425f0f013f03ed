"""The self-check every template must pass, for authors and for the test suite:
over many seeds, the reference solution scores 1.0 and passes, doing nothing
scores 0, and dropping any single state-changing call (or the answer) fails."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from officegym.runner import ToolRunner
from officegym.tasks.base import Task, make_task
from officegym.tasks.grading import Grade, grade
from officegym.tools import ToolCall, load_tools
from officegym.world import World, world_image

__all__ = ["Problem", "play", "replay", "validate_template"]


@dataclass(frozen=True)
class Problem:
    """One broken promise of a template instance."""

    template_id: str
    seed: int
    what: str


def play(world: World, task: Task, *, skip: int | None = None) -> tuple[Grade, list[str]]:
    """Replay the reference solution (without call `skip`; index len(solution) drops the
    answer) on a fresh copy of the world; returns the grade and the calls' errors."""
    calls = [c for i, c in enumerate(task.solution) if i != skip]
    answer = task.answer if skip != len(task.solution) else None
    return replay(world, task, calls, answer)


def replay(
    world: World, task: Task, calls: Iterable[ToolCall], answer: str | None
) -> tuple[Grade, list[str]]:
    """Run `calls` as the task's persona on a fresh copy of the world, then grade them with
    `answer`; returns the grade and the calls' errors."""
    world.reset()
    runner = ToolRunner(world, task.persona)
    errors = []
    for i, c in enumerate(calls):
        out = runner.call(c.name, c.arguments)
        if not out.ok:
            errors.append(f"call {i} {c.name}: {out.error}")
    runner.close()
    with world.initial_connection() as before, world.engine.connect() as after:
        return grade(task, before, after, answer), errors


def state_changing_steps(task: Task) -> list[int]:
    """Indexes of the solution's write calls, plus len(solution) if an answer is needed."""
    registry = load_tools()
    steps = [i for i, c in enumerate(task.solution) if registry[c.name].kind == "write"]
    return [*steps, len(task.solution)] if task.answer is not None else steps


def validate_template(
    template_id: str, seeds: Iterable[int], *, scenario: str = "default", world_seed: int = 0
) -> list[Problem]:
    """Every problem found over `seeds` (an empty list means the template is sound)."""
    world = World(world_image(scenario, world_seed))
    problems: list[Problem] = []
    for seed in seeds:
        try:
            task = make_task(template_id, seed, scenario, world_seed)
        except Exception as exc:  # report, don't stop: authors want every failure at once
            problems.append(Problem(template_id, seed, f"build failed: {exc!r}"))
            continue
        problems += [Problem(template_id, seed, w) for w in _instance_problems(world, task)]
    world.close()
    return problems


def _instance_problems(world: World, task: Task) -> list[str]:
    out = []
    g, errors = play(world, task)
    out += [f"reference solution {e}" for e in errors]
    if (g.reward, g.passed) != (1.0, True):
        failed = [c.name for c in g.checks if not c.passed] + list(g.collateral)
        out.append(f"reference solution scored {g.reward} (failed: {failed})")
    world.reset()
    with world.initial_connection() as before, world.engine.connect() as after:
        noop = grade(task, before, after, None)
    if noop.reward != 0 or noop.passed:
        out.append(f"doing nothing scored {noop.reward}")
    steps = state_changing_steps(task)
    if not steps:
        out.append("the task neither changes state nor needs an answer")
    for i in steps:
        if play(world, task, skip=i)[0].passed:
            out.append(f"passes without step {i}")
    return out
