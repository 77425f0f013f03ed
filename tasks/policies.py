"""Generic cheap policies `officegym validate` runs on every template; each must fail.

- ``undo``: the reference solution, then the inverse of one of its writes
  (`officegym.tasks.undo`), once per write: work done and undone earns nothing;
- ``messages-only``: only the reference's message-posting calls and its answer: a
  message that reports work never done earns nothing;
- ``priors``: over the seeds checked, the share of instances whose expected answer is
  the most common one; above `PRIOR_LIMIT` (or the template's declared `balanced`)
  one constant answer passes too often. Judged only over `PRIOR_MIN_SEEDS` seeds or
  more (the thorough run; fewer tell 10% apart too roughly), reported always.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from officegym.runner import CallOutcome
from officegym.tasks.base import Task
from officegym.tasks.expected import expected, run_calls
from officegym.tasks.undo import inverse
from officegym.tools import ToolCall, load_tools
from officegym.world import World

__all__ = [
    "MESSAGE_TOOLS",
    "POLICIES",
    "PRIOR_LIMIT",
    "PRIOR_MIN_SEEDS",
    "Run",
    "Tally",
    "messages_only",
    "prior_share",
    "undo_runs",
]

POLICIES = ("undo", "messages-only")
MESSAGE_TOOLS = frozenset(
    {"slack_post_message", "slack_reply_in_thread", "slack_send_dm", "booking_message_host"}
)
PRIOR_LIMIT = 0.10
PRIOR_MIN_SEEDS = 50  # validate's thorough run; the default 20 seeds report the share only


@dataclass(frozen=True)
class Run:
    """One policy run on one instance: its label, calls and answer."""

    policy: str
    label: str
    calls: tuple[ToolCall, ...]
    answer: str | None


@dataclass
class Tally:
    """How many runs of a policy were made and how many failed, as they must."""

    run: int = 0
    killed: int = 0

    @property
    def survived(self) -> int:
        return self.run - self.killed

    def add(self, other: Tally) -> None:
        self.run += other.run
        self.killed += other.killed

    def to_dict(self) -> dict[str, int]:
        return {"run": self.run, "killed": self.killed, "survived": self.survived}


def undo_runs(world: World, task: Task) -> tuple[list[Run], set[str]]:
    """One run per write call of the reference that changed rows: the reference, then the
    call's inverse; and the write tools met that have no inverse."""
    outcomes: list[CallOutcome] = []
    run_calls(world, task, task.solution, outcomes=outcomes)
    exp = expected(task)
    by_key = {(c.table, c.row_id): c for c in exp.changes}
    runs, unpaired = [], set()
    for step in exp.steps:
        call, out = task.solution[step.index], outcomes[step.index]
        if not out.ok:
            continue
        undo = inverse(call, out.result, [by_key[k] for k in step.rows if k in by_key])
        if undo is None:
            unpaired.add(call.name)
        elif undo:
            label = f"undo call {step.index} {call.name} with {undo[0].name}"
            runs.append(Run("undo", label, (*task.solution, *undo), task.answer))
    return runs, unpaired


def messages_only(task: Task) -> list[Run]:
    """The reference's message-posting calls and its answer, when its other writes are
    work a message could claim (none when every write is a message)."""
    kinds = {name: t.kind for name, t in load_tools().items()}
    writes = [c for c in task.solution if kinds.get(c.name) == "write"]
    said = tuple(c for c in writes if c.name in MESSAGE_TOOLS)
    if not said or len(said) == len(writes):
        return []
    return [Run("messages-only", "only the reference's messages", said, task.answer)]


def prior_share(answers: Sequence[str | None]) -> float | None:
    """The share of instances whose expected answer is the most common one (None when no
    instance expects an answer)."""
    given = [a for a in answers if a is not None]
    if not given:
        return None
    return Counter(given).most_common(1)[0][1] / len(given)
