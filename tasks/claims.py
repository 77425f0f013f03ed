"""Claims of work: a message that confirms or reports work is credited only when that
work is done.

A check `claims` work when passing it says the work is done (`Said` with `act="confirm"`
or `"report"`). Which work: the writes of the reference solution that its message
follows. The reference is cut at its messages: the non-message writes since the previous
message are the piece of work a message claims. A message that follows only reads
reports what it read and claims no work (an answer to a question); one that follows
nothing claims the piece of the message before it, so confirmations batched after all
the work claim all of it (one undone piece fails the whole batch: the reference does
not say which confirmation is whose). A claim check reads some of the reference's messages (where
it frees their text: `Check.frees`); it is credited only when the state items
(`officegym.tasks.grading`) of every write of their pieces pass, and else fails, with
the state items of those messages. A claim whose message is not found claims all the
task's writes. So a false "done" earns nothing, and in a long task a skipped request
costs its own confirmation, not the others'.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from officegym.tasks.base import Task
from officegym.tasks.checks import GradeContext
from officegym.tasks.expected import Expected
from officegym.tasks.expected import Step as WriteStep

if TYPE_CHECKING:
    from officegym.tasks.grading import CheckResult

__all__ = ["MESSAGE_TOOLS", "gate_claims", "pieces"]

MESSAGE_TOOLS = frozenset(
    {"slack_post_message", "slack_reply_in_thread", "slack_send_dm", "booking_message_host"}
)  # writes that only say something: never the work a message claims


def pieces(steps: Sequence[WriteStep], calls: int | None = None) -> dict[int, tuple[int, ...]]:
    """Call index of each message write of the reference -> the call indices of the
    non-message writes it claims: those since the previous message; none when only
    reads came since (it reports what it read); the previous message's when nothing
    came since (a batch of confirmations). `calls`: how many calls the reference
    makes (to tell reads from nothing between two messages); None: no reads."""
    out: dict[int, tuple[int, ...]] = {}
    work: list[int] = []
    last: tuple[int, ...] = ()
    previous = -1  # call index of the previous message
    for s in steps:
        if s.tool not in MESSAGE_TOOLS:
            work.append(s.index)
            continue
        if work:
            last, work = tuple(work), []
        elif calls is not None and s.index - previous > 1:
            last = ()  # only reads since the previous message
        out[s.index] = last
        previous = s.index
    return out


def gate_claims(
    task: Task,
    g: GradeContext,
    exp: Expected,
    checks: list[CheckResult],
    state: list[CheckResult],
    judged: frozenset[int] = frozenset(),
) -> list[CheckResult]:
    """The check results, then the state items, with each claim whose work is not done
    failed, and the state items of the reference messages it reads. The `judged` calls
    have no state item (a check judges their outcome) and count as done here."""
    claims = [i for i, c in enumerate(task.checks) if c.claims]
    if not claims:
        return [*checks, *state]
    itemized = [s for s in exp.steps if s.index not in judged]
    ok = {s.index: r.passed for r, s in zip(state, itemized, strict=True)}
    name = {s.index: r.name for r, s in zip(state, itemized, strict=True)}
    cut = pieces(exp.steps, len(task.solution))
    everything = tuple(s.index for s in exp.steps if s.tool not in MESSAGE_TOOLS)
    rows = {(c.table, c.row_id): c.row for c in exp.changes}
    checks, failed = list(checks), {}
    for i in claims:
        said = _messages(task.checks[i], g, exp, rows)
        work = {w for m in said for w in cut[m]} if said else set(everything)
        undone = sorted(w for w in work if not ok.get(w, True))
        if undone:
            why = f"the work it claims is not done ({name[undone[0]]})"
            checks[i] = _failed(checks[i], why)
            failed.update(dict.fromkeys(said, why))
    items = [_failed(r, failed[s.index]) if s.index in failed else r
             for r, s in zip(state, itemized, strict=True)]  # fmt: skip
    return [*checks, *items]


def _messages(check: Any, g: GradeContext, exp: Expected, rows: dict) -> list[int]:
    """Call indices of the reference's message writes whose rows `check` reads."""
    frees = check.frees(g.initial)
    return [
        s.index
        for s in exp.steps
        if s.tool in MESSAGE_TOOLS
        and any(
            f.table == t and f.covers(rows[t, r])
            for t, r in s.rows
            if (t, r) in rows
            for f in frees
        )
    ]


def _failed(result: CheckResult, why: str) -> CheckResult:
    if not result.passed:
        return result
    return replace(result, passed=False, detail=f"{result.detail}; but {why}")
