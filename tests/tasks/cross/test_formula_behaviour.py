"""A formula the task asks for is judged by what it computes, not by its text: the
reference with absolute references, or with a sum written out cell by cell, scores 1.0
(`Follows`/`Computes` free the cells they judge; `$` never makes a formula differ in
the state compared); a merchant typed in another case is the same text to the sheet."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from officegym.tasks import make_task
from officegym.tasks.base import Task
from officegym.tasks.validate import replay
from officegym.tools import ToolCall
from officegym.world import World

COMPUTED = ["cross.fix-report-request", "cross.pipeline-to-sheet"]


@pytest.fixture(scope="module")
def world(module_world: World) -> World:
    return module_world


def _absolute(value: object) -> object:
    if isinstance(value, str) and value.startswith("="):
        return re.sub(r"(?<![A-Za-z$])([A-Z]{1,2})(\d+)", r"$\1$\2", value)
    return value


def _spelled_out(value: object) -> object:
    """=SUM(C2:C5) as =C2+C3+C4+C5."""
    m = re.fullmatch(r"=SUM\(([A-Z])(\d+):\1(\d+)\)", value) if isinstance(value, str) else None
    if m is None:
        return value
    return "=" + "+".join(f"{m[1]}{r}" for r in range(int(m[2]), int(m[3]) + 1))


def _rewritten(task: Task, how: Callable[[object], object]) -> list[ToolCall]:
    out = []
    for c in task.solution:
        values = c.arguments.get("values")
        if isinstance(values, list):
            values = [[how(v) for v in row] for row in values]
            c = ToolCall(c.name, {**c.arguments, "values": values})
        out.append(c)
    return out


@pytest.mark.parametrize("template_id", COMPUTED)
@pytest.mark.parametrize("how", [_absolute, _spelled_out], ids=["absolute", "spelled-out"])
@pytest.mark.parametrize("seed", range(3))
def test_an_equivalent_formula_scores_one(
    world: World, template_id: str, how: Callable[[object], object], seed: int
) -> None:
    task = make_task(template_id, seed)
    calls = _rewritten(task, how)
    graded, errors = replay(world, task, calls, task.answer)
    assert not errors
    assert (graded.reward, graded.passed) == (1.0, True), [
        c.detail for c in graded.checks if not c.passed
    ]


def test_an_absolute_reference_is_a_rewrite_of_some_formula() -> None:
    """The rewrites the tests above use change the reference (or test nothing)."""
    task = make_task("cross.pipeline-to-sheet", 0)
    assert _rewritten(task, _absolute) != list(task.solution)
    assert _rewritten(task, _spelled_out) != list(task.solution)


@pytest.mark.parametrize("seed", range(3))
def test_a_merchant_in_another_case_is_the_same_merchant(world: World, seed: int) -> None:
    task = make_task("sheets.append-expense", seed)

    def shout(v: object) -> object:
        return v.upper() if isinstance(v, str) and v[:1].isalpha() else v

    calls = _rewritten(task, shout)
    assert calls != list(task.solution)
    graded, errors = replay(world, task, calls, task.answer)
    assert not errors and (graded.reward, graded.passed) == (1.0, True)
