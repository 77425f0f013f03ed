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

A claim follows its work: where the world logs the order of its writes
(`officegym.changes.write_order`), the claim check is judged again on the messages
first sent after the last write of the agent's rows for the work it claims (rows the
reference writes again in a later call are left out), so a "done" sent
before the work, with the same end state, earns nothing; an edit made after the work
does not move when a message was sent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection

from officegym.changes import write_order
from officegym.tasks.base import Task
from officegym.tasks.checks import GradeContext
from officegym.tasks.expected import Expected, expected
from officegym.tasks.expected import Step as WriteStep

if TYPE_CHECKING:
    from officegym.tasks.grading import CheckResult
    from officegym.tasks.matching import Matching

__all__ = ["MESSAGE_TOOLS", "claimed_messages", "gate_claims", "pieces"]

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
    matching: Matching | None = None,
) -> list[CheckResult]:
    """The check results, then the state items, with each claim whose work is not done
    (or was done only after the claim was sent: with `matching`, where the order of
    writes is logged) failed, and the state items of the reference messages it reads.
    The `judged` calls have no state item (a check judges their outcome) and count as
    done here."""
    claims = [i for i, c in enumerate(task.checks) if c.claims]
    if not claims:
        return [*checks, *state]
    order = write_order(g.final) if matching is not None else None
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
        why = f"the work it claims is not done ({name[undone[0]]})" if undone else None
        if why is None and order is not None and matching is not None and checks[i].passed:
            since = _done_at(exp, matching, order, work)
            why = _sent_before(task.checks[i], replace(g, order=order, sent_after=since))
        if why is not None:
            checks[i] = _failed(checks[i], why)
            failed.update(dict.fromkeys(said, why))
    items = [_failed(r, failed[s.index]) if s.index in failed else r
             for r, s in zip(state, itemized, strict=True)]  # fmt: skip
    return [*checks, *items]


def claimed_messages(task: Task, initial: Connection) -> dict[int, tuple[int, ...]]:
    """Call index of each message of the reference that a claiming check reads -> the
    call indices of the work it claims (only messages that claim some work)."""
    exp = expected(task)
    cut = pieces(exp.steps, len(task.solution))
    rows = {(c.table, c.row_id): c.row for c in exp.changes}
    g = GradeContext(initial=initial, final=initial, changes=(), answer=None)
    read = {m for c in task.checks if c.claims for m in _messages(c, g, exp, rows)}
    return {m: cut[m] for m in sorted(read) if cut.get(m)}


def _done_at(
    exp: Expected,
    matching: Matching,
    order: Mapping[tuple[str, int], tuple[int, int]],
    work: set[int],
) -> int | None:
    """The position of the last write to the agent's rows for the `work` calls (None when
    none is logged), leaving out rows a later call of the reference writes again (its
    message may touch them too)."""
    mine = [
        matching.pairs.get(k)
        for s in exp.steps
        if s.index in work
        for k in s.rows
        if not any(k in later.rows for later in exp.steps if later.index > s.index)
    ]
    last = [order[m][1] for m in mine if m is not None and m in order]
    return max(last, default=None)


def _sent_before(check: Any, g: GradeContext) -> str | None:
    """Why `check` fails on the messages sent after the work (None: it passes)."""
    if g.sent_after is None:
        return None
    try:
        ok, detail = check.evaluate(g)
    except Exception as exc:  # a broken check fails; it never crashes an episode
        ok, detail = False, f"check raised {type(exc).__name__}: {exc}"
    return None if ok else f"it was sent before the work it claims (after the work: {detail})"


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
