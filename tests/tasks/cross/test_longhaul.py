"""The long-horizon templates (`tasks/cross/longhaul_*.py`): references of 20-50 calls,
partial credit that grows with the sub-goals done, and failure when one owner's or one
request's work is skipped. The account sheet's sub-goals are rows of one write, so its
partial solutions leave rows out instead of calls."""

from __future__ import annotations

import dataclasses
import re

import pytest

from officegym.tasks.base import Task, make_task
from officegym.tasks.cross.longhaul import LONG_HORIZON
from officegym.tasks.grading import CheckResult
from officegym.tasks.validate import replay, state_changing_steps
from officegym.world import World, world_image

CLAIMED = "the work it claims is not done"  # a claim's detail when its work is undone (claims.py)
# The account sheet's sub-goals are rows of one write: its partial solutions are tested apart.
LONG = [t for t in LONG_HORIZON if t != "cross.account-pipeline-sheet"]


@pytest.fixture(scope="module")
def world() -> World:
    return World(world_image("default", 0))


def _upto(task: Task, writes: int) -> list:
    """The reference up to (not including) its `writes`-th state-changing call: the first
    sub-goals done in the reference's order, reads included."""
    steps = state_changing_steps(task)
    end = steps[writes] if writes < len(steps) else len(task.solution)
    return list(task.solution[:end])


@pytest.mark.parametrize("template_id", LONG_HORIZON)
def test_reference_takes_20_to_50_calls(template_id: str) -> None:
    lengths = [len(make_task(template_id, seed).solution) for seed in range(20)]
    assert min(lengths) >= 20 and max(lengths) <= 50, lengths


@pytest.mark.parametrize("template_id", LONG)
def test_partial_solutions_earn_credit_in_proportion(world: World, template_id: str) -> None:
    task = make_task(template_id, 1)
    n = len(state_changing_steps(task))
    rewards = []
    for share in (0.25, 0.5, 0.75):
        grade, errors = replay(world, task, _upto(task, round(n * share)), task.answer)
        assert not errors
        assert not grade.passed and not grade.collateral
        rewards.append(grade.reward)
    assert 0 < rewards[0] < rewards[1] < rewards[2] < 1, rewards
    assert 0.2 <= rewards[1] <= 0.8, rewards  # about half the sub-goals, about half the credit


@pytest.mark.parametrize("template_id", LONG)
def test_skipping_one_sub_goal_fails_but_keeps_the_rest(world: World, template_id: str) -> None:
    task = make_task(template_id, 2)
    steps = state_changing_steps(task)
    skip = steps[len(steps) // 2]
    calls = _skipping(task, skip)
    grade, _errors = replay(world, task, calls, task.answer)
    assert not grade.passed
    own, state = _split(grade.checks)
    claims = [c for c in grade.checks if CLAIMED in c.detail]  # messages claiming it
    failed = [c.name for c in own if not c.passed and c not in claims]
    assert 1 <= len(failed) <= 2, failed  # that one change (and the reply naming it, if any)
    assert [c.name for c in state if not c.passed and c not in claims] == [
        f"state: call {skip} {task.solution[skip].name}"
    ]
    gated = sum(c in claims for c in own), sum(c in claims for c in state)
    assert grade.reward >= 1 - (2 + gated[0]) / len(own) - (1 + gated[1]) / len(state)


def _skipping(task: Task, skip: int) -> list:
    """The reference without call `skip`, as an agent would run it: a case left uncreated
    leaves its number to the next case, so the replies after it quote the numbers the CRM
    gave (each one less), not the reference's."""
    calls = [c for i, c in enumerate(task.solution) if i != skip]
    later = " ".join(str(c.arguments) for c in task.solution[skip + 1 :])
    first = re.search(r"\b\d{8}\b", later)
    if task.solution[skip].name != "crm_create_case" or first is None:
        return calls
    gone = int(first.group())  # the skipped case's number, quoted by the reply after it

    def renumber(value: object) -> object:
        if not isinstance(value, str):
            return value
        return re.sub(r"\b\d{8}\b", lambda m: f"{int(m[0]) - (int(m[0]) > gone):08d}", value)

    for i in range(skip, len(calls)):
        args = {k: renumber(v) for k, v in calls[i].arguments.items()}
        calls[i] = dataclasses.replace(calls[i], arguments=args)
    return calls


def _split(checks: tuple[CheckResult, ...]) -> tuple[list[CheckResult], list[CheckResult]]:
    """The template's own checks, and the state items of final-state grading."""
    state = [c for c in checks if c.name.startswith("state: ")]
    return [c for c in checks if c not in state], state


def _share(checks: list[CheckResult]) -> float:
    return sum(c.weight for c in checks if c.passed) / sum(c.weight for c in checks)


def _with_rows(task: Task, keep: slice | list[int]) -> list:
    """The reference of the account sheet with only some account rows written."""
    calls = []
    for c in task.solution:
        if c.name == "sheets_write_range":
            header, *rows = c.arguments["values"]
            kept = rows[keep] if isinstance(keep, slice) else [rows[i] for i in keep]
            c = dataclasses.replace(c, arguments={**c.arguments, "values": [header, *kept]})
        calls.append(c)
    return calls


def test_account_sheet_credit_follows_the_rows_written(world: World) -> None:
    """Its sub-goals are rows of one write: half the rows earn about half the credit."""
    task = make_task("cross.account-pipeline-sheet", 1)
    rows = len(task.checks) - 1  # one check per account, then the DM
    grade, errors = replay(world, task, _with_rows(task, slice(0, rows // 2)), task.answer)
    assert not errors and not grade.passed and not grade.collateral
    own, state = _split(grade.checks)
    # The DM reports the total of a sheet left incomplete: a claim of undone work.
    assert [c.name for c in own if CLAIMED in c.detail] == [task.checks[-1].name]
    assert _share(own) == pytest.approx((rows // 2) / (rows + 1))
    wrong = [c.name.split()[-1] for c in state if not c.passed and CLAIMED not in c.detail]
    assert wrong == ["sheets_write_range"]
    assert grade.reward == pytest.approx((_share(own) + _share(state)) / 2)


def test_account_sheet_missing_one_account_fails(world: World) -> None:
    task = make_task("cross.account-pipeline-sheet", 2)
    rows = len(task.checks) - 1
    keep = [i for i in range(rows) if i != rows // 2]
    grade, _ = replay(world, task, _with_rows(task, keep), task.answer)
    assert not grade.passed
    own, state = _split(grade.checks)
    failed = [c.name for c in own if not c.passed and CLAIMED not in c.detail]
    assert failed == [task.checks[rows // 2].name]
    wrong = [c.name.split()[-1] for c in state if not c.passed and CLAIMED not in c.detail]
    assert wrong == ["sheets_write_range"]
