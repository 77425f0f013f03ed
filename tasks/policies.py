"""Generic cheap policies `officegym validate` runs on every template; each must fail.

- ``undo``: the reference solution, then the inverse of one of its writes
  (`officegym.tasks.undo`), once per write: work done and undone earns nothing;
- ``messages-only``: only the reference's message-posting calls and its answer: a
  message that reports work never done earns nothing;
- ``typed-in``: the reference with every other row of formulas it writes typed in as
  the values they compute: a result typed in is not a computation (only for references
  that write formulas);
- ``extra-damage``: the reference plus one more write in the area its allowances
  permit but it did not touch: its last message posted once more (where an `Allow`
  covers that message table), one cell below the used rows of the sheet it last wrote
  (where an `Allow` covers sheet cells). A survivor is an allowance looser than the
  task needs: allowances name the cell range and the number of posts the goal leaves
  room for, and the reference's own changes use them up first;
- ``claim-first``: the reference with one message that a claiming check reads
  (`officegym.tasks.claims`) sent before the work it claims instead of after, once per
  such message: the same end state, but a "done" sent before the work is a lie;
- ``priors``: over the seeds checked, the share of instances whose expected answer is
  the most common one; above `PRIOR_LIMIT` (or the template's declared `balanced`)
  one constant answer passes too often. Judged only over `PRIOR_MIN_SEEDS` seeds or
  more (the thorough run; fewer tell 10% apart too roughly), reported always.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import func, select

from officegym.apps.sheets.models import Cell, Sheet
from officegym.apps.sheets.refs import Area, parse_area
from officegym.runner import CallOutcome
from officegym.tasks.base import Task
from officegym.tasks.claims import MESSAGE_TOOLS, claimed_messages
from officegym.tasks.expected import expected, run_calls
from officegym.tasks.mutants import Mutant
from officegym.tasks.undo import inverse
from officegym.tools import ToolCall, load_tools
from officegym.world import World

__all__ = [
    "MESSAGE_TOOLS",
    "POLICIES",
    "PRIOR_LIMIT",
    "PRIOR_MIN_SEEDS",
    "REPORTED_ONLY",
    "Tally",
    "claim_first",
    "extra_damage",
    "messages_only",
    "prior_share",
    "reference_outcomes",
    "typed_in",
    "undo_runs",
]

POLICIES = ("undo", "messages-only", "typed-in", "extra-damage", "claim-first")
# Policies counted and listed but not yet a problem (validate's "loose" list): none since
# allowances name cell ranges and the posts the goal needs (extra-damage fails like the rest).
REPORTED_ONLY: frozenset[str] = frozenset()
VALUE_WRITES = frozenset({"sheets_write_range", "sheets_append_rows"})  # `values` rows
MESSAGE_TABLES = {"booking_message_host": "booking_message"}  # else slack_message
PRIOR_LIMIT = 0.10
PRIOR_MIN_SEEDS = 50  # validate's thorough run; the default 20 seeds report the share only


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


def reference_outcomes(world: World, task: Task) -> list[CallOutcome]:
    """Run the reference solution on a fresh copy of the world (which it then leaves in
    the reference's end state); each call's outcome."""
    outcomes: list[CallOutcome] = []
    run_calls(world, task, task.solution, outcomes=outcomes)
    return outcomes


def undo_runs(
    world: World, task: Task, outcomes: Sequence[CallOutcome] | None = None
) -> tuple[list[Mutant], set[str]]:
    """One run per write call of the reference that changed rows: the reference, then the
    call's inverse; and the write tools met that have no inverse. `outcomes`: those of
    the reference's calls, when already run."""
    if outcomes is None:
        outcomes = reference_outcomes(world, task)
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
            runs.append(Mutant("undo", label, (*task.solution, *undo), task.answer))
    return runs, unpaired


def messages_only(task: Task) -> list[Mutant]:
    """The reference's message-posting calls and its answer, when its other writes are
    work a message could claim (none when every write is a message)."""
    kinds = {name: t.kind for name, t in load_tools().items()}
    writes = [c for c in task.solution if kinds.get(c.name) == "write"]
    said = tuple(c for c in writes if c.name in MESSAGE_TOOLS)
    if not said or len(said) == len(writes):
        return []
    return [Mutant("messages-only", "only the reference's messages", said, task.answer)]


def prior_share(answers: Sequence[str | None]) -> float | None:
    """The share of instances whose expected answer is the most common one (None when no
    instance expects an answer)."""
    given = [a for a in answers if a is not None]
    if not given:
        return None
    return Counter(given).most_common(1)[0][1] / len(given)


def typed_in(task: Task, outcomes: Sequence[CallOutcome]) -> list[Mutant]:
    """The reference with, in each of its sheet writes, every other row holding formulas
    typed in as the values the reference computed there (from the write's echo); none
    when the reference writes no formula."""
    calls, changed = list(task.solution), False
    for i, (c, out) in enumerate(zip(task.solution, outcomes, strict=True)):
        rows, echo = c.arguments.get("values"), out.result
        if c.name not in VALUE_WRITES or not out.ok or not isinstance(echo, dict):
            continue
        if not isinstance(rows, list) or len(echo.get("values") or []) != len(rows):
            continue  # a block too big to echo: its values are unknown here
        typed = _typed(rows, echo["values"])
        if typed != rows:
            calls[i], changed = ToolCall(c.name, {**c.arguments, "values": typed}), True
    if not changed:
        return []
    return [Mutant("typed-in", "every other formula row typed in", tuple(calls), task.answer)]


def _typed(rows: list[list], computed: list[list]) -> list[list]:
    """`rows` with the formulas of every other row that holds any (the first, third, ...)
    replaced by the computed values at the same places."""
    with_formulas = [r for r, row in enumerate(rows) if any(_formula(v) for v in row)]
    out = [list(row) for row in rows]
    for r in with_formulas[::2]:
        for col, v in enumerate(rows[r]):
            if _formula(v) and col < len(computed[r]):
                out[r][col] = computed[r][col]
    return out


def _formula(value: object) -> bool:
    return isinstance(value, str) and value.startswith("=")


def extra_damage(world: World, task: Task, outcomes: Sequence[CallOutcome]) -> list[Mutant]:
    """The reference plus one write more where the task's allowances reach: its last
    message again, and a cell below the used rows of the sheet it last wrote. Reads the
    world, which must hold the reference's end state (`reference_outcomes`)."""
    tables = {a.table for a in task.allowed}
    runs = []
    said = [c for c in task.solution if c.name in MESSAGE_TOOLS]
    if said and MESSAGE_TABLES.get(said[-1].name, "slack_message") in tables:
        calls = (*task.solution, said[-1])
        runs.append(Mutant("extra-damage", f"{said[-1].name} once more", calls, task.answer))
    if "sheets_cell" in tables and (cell := _extra_cell(world, task, outcomes)) is not None:
        label = f"one more cell {cell.arguments['range']}"
        runs.append(Mutant("extra-damage", label, (*task.solution, cell), task.answer))
    return runs


def _extra_cell(world: World, task: Task, outcomes: Sequence[CallOutcome]) -> ToolCall | None:
    """A write of one cell in the first column of the reference's last sheet write, on
    the row below its sheet's used rows (None when the reference writes no values)."""
    wrote = [
        (c, out.result)
        for c, out in zip(task.solution, outcomes, strict=True)
        if c.name in VALUE_WRITES and out.ok and isinstance(out.result, dict)
    ]
    if not wrote or "updated_range" not in wrote[-1][1]:
        return None
    c, echo = wrote[-1]
    area = parse_area(echo["updated_range"])
    name = area.sheet or c.arguments.get("sheet")
    with world.engine.connect() as db:
        sheets = db.execute(
            select(Sheet.id, Sheet.name)
            .where(Sheet.workbook_id == echo["workbook_id"])
            .order_by(Sheet.position)
        ).all()
        ids = [i for i, n in sheets if n == name] if name else [i for i, _ in sheets[:1]]
        if not ids:
            return None  # the sheet is gone by the end (renamed, deleted)
        top = db.execute(select(func.max(Cell.row)).where(Cell.sheet_id == ids[0])).scalar()
    below = Area((top or 0) + 1, area.c1, (top or 0) + 1, area.c1, name).label()
    args = {"workbook": c.arguments["workbook"], "range": below, "values": [["extra"]]}
    return ToolCall("sheets_write_range", args)


def claim_first(world: World, task: Task) -> list[Mutant]:
    """The reference with one message a claiming check reads moved to just before the
    first call of the work it claims, once per such message."""
    with world.initial_connection() as initial:
        claimed = claimed_messages(task, initial)
    runs = []
    for m, work in claimed.items():
        first = min(work)
        calls = list(task.solution)
        calls.insert(first, calls.pop(m))
        label = f"call {m} {task.solution[m].name} sent before call {first}"
        runs.append(Mutant("claim-first", label, tuple(calls), task.answer))
    return runs
