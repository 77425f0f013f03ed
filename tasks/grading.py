"""Grading: a pure function of (task, initial state, final state, final answer).

The rubric gives partial credit (weighted share of passing checks). Any change
that no `Allow` of the task covers is collateral damage: it halves the reward and
fails the task. A task passes when every required check passes and nothing else
was damaged.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import Connection

from officegym.changes import diff
from officegym.tasks.base import Task
from officegym.tasks.checks import GradeContext

__all__ = ["COLLATERAL_PENALTY", "CheckResult", "Grade", "grade"]

COLLATERAL_PENALTY = 0.5


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


def grade(task: Task, initial: Connection, final: Connection, answer: str | None) -> Grade:
    """Score the final state of an episode against its task."""
    changes = tuple(diff(initial, final))
    g = GradeContext(initial=initial, final=final, changes=changes, answer=answer, goal=task.goal)
    results = []
    for check in task.checks:
        try:
            ok, detail = check.evaluate(g)
        except Exception as exc:  # a broken check fails; it never crashes an episode
            ok, detail = False, f"check raised {type(exc).__name__}: {exc}"
        results.append(CheckResult(check.name, bool(ok), check.weight, check.required, detail))
    total = sum(r.weight for r in results) or 1.0
    score = sum(r.weight for r in results if r.passed) / total
    damage = collateral(task, g)
    reward = score * (1 - COLLATERAL_PENALTY) if damage else score
    passed = all(r.passed for r in results if r.required) and not damage
    return Grade(round(reward, 6), passed, tuple(results), tuple(damage))


def collateral(task: Task, g: GradeContext) -> list[str]:
    """Descriptions of the changes no allowance of the task covers."""
    allowed = [a.resolved(g) for a in task.allowed]
    used = [0] * len(allowed)
    out = []
    for change in g.changes:
        for i, allow in enumerate(allowed):
            if allow.matches(change) and (allow.limit is None or used[i] < allow.limit):
                used[i] += 1
                break
        else:
            fields = ", ".join(sorted(change.fields)) if change.kind == "update" else ""
            out.append(f"{change.kind} {change.table} #{change.row_id} {fields}".strip())
    return out
