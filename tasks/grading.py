"""Grading: a pure function of (task, initial state, final state, final answer).

Two kinds of rubric items, weighted into partial credit:

- the template's own checks (answers, messages, computations);
- one *state* item per write call of the task's reference solution: the rows that call
  changed must end as the reference leaves them (`officegym.tasks.expected`), compared
  by `officegym.tasks.matching` up to what is free (`officegym.tasks.freedom`). Together
  the state items weigh as much as the template's checks, split evenly over the calls.

A message that confirms or reports work (a check that `claims` it: `Said` with
`act="confirm"` or `"report"`) is credited only when the work it follows in the
reference is done (`officegym.tasks.claims`): else it fails, with the state item of its
message, so a false "done" earns nothing.

Whatever else the agent changed goes through the task's allowances (`Allow`); the rest
is collateral damage, priced by its size: an inserted or deleted row is one unit, an
updated row one unit per changed field (a sheet's cells are rows), and the reward is
multiplied by 1 / (1 + units). A task passes when every required item passes and
nothing else was damaged. A `fatal` check that fails (a protected value leaked) makes the
reward 0, whatever else was done.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import Connection

from officegym.changes import RowChange, diff
from officegym.tasks.base import Task
from officegym.tasks.checks import Allow, GradeContext
from officegym.tasks.claims import gate_claims
from officegym.tasks.expected import Expected, expected
from officegym.tasks.matching import Matching, match, units

__all__ = ["CheckResult", "Grade", "collateral", "grade", "price"]


@dataclass(frozen=True)
class CheckResult:
    name: str
    passed: bool
    weight: float
    required: bool
    detail: str


@dataclass(frozen=True)
class Grade:
    reward: float
    passed: bool
    checks: tuple[CheckResult, ...]
    collateral: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "reward": self.reward,
            "passed": self.passed,
            "checks": [asdict(c) for c in self.checks],
            "collateral": list(self.collateral),
        }


def price(units: int) -> float:
    """The reward multiplier for `units` of collateral damage: one stray write halves
    the reward, eight leave a ninth."""
    return 1 / (1 + units)


def grade(task: Task, initial: Connection, final: Connection, answer: str | None) -> Grade:
    """Score the final state of an episode against its task."""
    changes = tuple(diff(initial, final))
    g = GradeContext(
        initial=initial, final=final, changes=changes, answer=answer, goal=task.goal,
        words=own_words(task),
    )  # fmt: skip
    results = []
    for check in task.checks:
        try:
            ok, detail = check.evaluate(g)
        except Exception as exc:  # a broken check fails; it never crashes an episode
            ok, detail = False, f"check raised {type(exc).__name__}: {exc}"
        results.append(CheckResult(check.name, bool(ok), check.weight, check.required, detail))
    void = any(c.fatal and not r.passed for c, r in zip(task.checks, results, strict=True))
    exp = expected(task)
    matching = match(exp, changes)
    judged = frozenset().union(*(c.judged_calls() for c in task.checks))
    state = state_items(exp, matching, sum(r.weight for r in results) or 1.0, judged)
    results = gate_claims(task, g, exp, results, state, judged, matching)
    total = sum(r.weight for r in results) or 1.0
    score = sum(r.weight for r in results if r.passed) / total
    damage, cost = collateral(task, g, matching)
    passed = all(r.passed for r in results if r.required) and not damage
    reward = 0.0 if void else round(score * price(cost), 6)
    return Grade(reward, passed, tuple(results), tuple(damage))


def own_words(task: Task) -> str:
    """The task's own text beside its goal: every text its reference writes (messages,
    notes, names) and its reference answer — words a reader counts as the task's."""
    texts = [v for c in task.solution for v in c.arguments.values() if isinstance(v, str)]
    return "\n".join([*texts, task.answer or ""])


def state_items(
    exp: Expected, matching: Matching, weight: float, judged: frozenset[int] = frozenset()
) -> list[CheckResult]:
    """One item per write call of the reference: its rows end as the reference's do (but
    for the `judged` calls, whose outcome a check judges itself)."""
    steps = [s for s in exp.steps if s.index not in judged]
    if not steps:
        return []
    each = weight / len(steps)
    out = []
    for step in steps:
        wrong = [v for key in step.rows if (v := matching.verdicts.get(key)) is not None]
        detail = "; ".join(wrong[:2]) if wrong else f"{len(step.rows)} row(s) as the reference"
        out.append(
            CheckResult(f"state: call {step.index} {step.tool}", not wrong, each, True, detail)
        )
    return out


def collateral(task: Task, g: GradeContext, matching: Matching) -> tuple[list[str], int]:
    """The changes no allowance of the task covers, described, and their size in units.
    The changes that match the reference use up allowances first (they never count as
    damage), so an allowance's `limit` still bounds the rows beyond the reference's."""
    allowed = [a.resolved(g) for a in task.allowed]
    used = [0] * len(allowed)
    for change in matching.matched:
        _consume(allowed, used, change)
    out, cost = [], 0
    for change in matching.rest:
        size = units(change)
        if size and not _consume(allowed, used, change):
            fields = ", ".join(sorted(change.fields)) if change.kind == "update" else ""
            out.append(f"{change.kind} {change.table} #{change.row_id} {fields}".strip())
            cost += size
    return out, cost


def _consume(allowed: Sequence[Allow], used: list[int], change: RowChange) -> bool:
    for i, allow in enumerate(allowed):
        if allow.matches(change) and (allow.limit is None or used[i] < allow.limit):
            used[i] += 1
            return True
    return False
