"""The evaluation budget: what one formula and one recalculation may cost.

A served world is shared: one cell must not hold the interpreter for minutes or fill
its memory. Every evaluation therefore runs within limits checked *before* the work:

- an intermediate array (a range read densely, a broadcast, a lifted call) holds at
  most `Limits.cells` values (`cells()`);
- a formula's array result spills into at most `Limits.spill` cells (`spill()`): those
  are stored cells, written and saved, so the cap is far below the array cap;
- text holds at most Excel's 32,767 characters (`text_size()`: #VALUE!, as Excel);
- a formula nests at most `Limits.depth` levels (a parse error, see `parse.py`);
- one recalculation runs at most `Limits.seconds`; formulas left when it runs out
  are not evaluated.

A cell whose formula blew the array or time budget shows #NUM! (Excel's error for a
result it cannot compute).

Functions whose cost grows with a number (FACT, dates far away) follow Excel's own
bounds (FACT(171) is #NUM!), which keep them cheap. A blown budget raises
`OverBudget`: unlike an error value inside a formula, IFERROR cannot catch it; the
engine puts `OverBudget.error` in the cell and notes the reason (`Book.over_budget`),
and a write whose own formula blew it is refused with that reason (`refuse`); the
other cells it cut short are named in the write tool's result (``over_budget``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from officegym.apps.sheets.refs import MAX_ROWS, a1
from officegym.apps.sheets.values import NUM, VALUE, Raise, XlError
from officegym.errors import Invalid

__all__ = [
    "LIMITS",
    "MAX_TEXT",
    "Limits",
    "OverBudget",
    "call",
    "cells",
    "clock",
    "current",
    "expired",
    "joined",
    "limits",
    "now",
    "recalculation",
    "refuse",
    "seconds_left",
    "spill",
    "text_size",
    "tick",
    "timeout",
]

MAX_TEXT = 32_767  # characters in a cell's text, as in Excel


@dataclass(frozen=True, slots=True)
class Limits:
    """The budget's caps (`LIMITS` by default; `limits()` changes them for a block)."""

    cells: int = MAX_ROWS  # values in any intermediate array: one whole column
    spill: int = 50_000  # cells one array result may fill (spill.py)
    depth: int = 200  # nesting levels of a formula (Excel allows 64 nested functions)
    seconds: float = 3.0  # per recalculation
    enforced: bool = True  # False only to measure what the checks cost (bench)


LIMITS = Limits()
_limits: ContextVar[Limits] = ContextVar("sheets_budget_limits", default=LIMITS)
_deadline: ContextVar[float] = ContextVar("sheets_budget_deadline", default=float("inf"))
_clock: ContextVar[Callable[[], float]] = ContextVar("sheets_budget_clock", default=time.monotonic)


def now() -> float:
    """The budget's clock: `time.monotonic`, or the one a test gives `clock()`."""
    return _clock.get()()


@contextmanager
def clock(read: Callable[[], float]) -> Iterator[None]:
    """Measure budgets in the block by `read` (a clock the test controls, so a budget
    test never depends on how fast the machine is)."""
    token = _clock.set(read)
    try:
        yield
    finally:
        _clock.reset(token)


class OverBudget(Exception):
    """An evaluation that would exceed the budget; `error` is what the cell shows."""

    def __init__(self, reason: str, error: XlError = NUM) -> None:
        super().__init__(reason)
        self.reason, self.error = reason, error


def current() -> Limits:
    return _limits.get()


@contextmanager
def limits(new: Limits) -> Iterator[Limits]:
    """Evaluate the block under other limits (tests, the bench's budgets-off run)."""
    token = _limits.set(new)
    try:
        yield new
    finally:
        _limits.reset(token)


@contextmanager
def recalculation() -> Iterator[None]:
    """One recalculation's time budget; a nested one shares the outer deadline."""
    lim = _limits.get()
    if _deadline.get() != float("inf") or not lim.enforced:
        yield
        return
    token = _deadline.set(now() + lim.seconds)
    try:
        yield
    finally:
        _deadline.reset(token)


@contextmanager
def call(entries: int) -> Iterator[Callable[[int], None]]:
    """One API call's budget, shared by all its `entries` (a batch's requests or value
    ranges): every recalculation inside runs against one deadline, `Limits.seconds` for
    the whole call, not per entry. Yields `check(i)`, called before entry `i`, which
    refuses the call (`Invalid`, code ``over_budget``) once the time is spent, so the
    caller's transaction rolls back and nothing of the call stays."""

    def check(i: int) -> None:
        if i and _limits.get().enforced and expired():
            raise Invalid(
                f"the call used its evaluation budget of {_limits.get().seconds:g} s "
                f"before entry {i + 1} of {entries}; nothing was applied (send fewer or "
                "lighter entries per call)",
                code="over_budget",
            )

    with recalculation():
        yield check


def expired() -> bool:
    """Whether the running recalculation has used its time."""
    return now() > _deadline.get()


def seconds_left() -> float:
    """The time the running recalculation has left (a whole budget outside one): the
    timeout of work that cannot check the clock itself, such as a regular expression."""
    left = _deadline.get() - now()
    return max(0.0, min(left, _limits.get().seconds))


def cells(n: int, what: str = "an array") -> None:
    """Check before building `n` values at once (and the time left)."""
    lim = _limits.get()
    if not lim.enforced:
        return
    if n > lim.cells:
        raise OverBudget(
            f"{what} of {n:,} cells exceeds the limit of {lim.cells:,} cells per array"
        )
    if n > 1000 and expired():
        raise timeout()


def spill(n: int) -> None:
    """Check an array result's size before it spills into `n` cells."""
    lim = _limits.get()
    if lim.enforced and n > lim.spill:
        raise OverBudget(f"a spilled array of {n:,} cells exceeds the limit of {lim.spill:,}")


def tick() -> None:
    """Check the time left inside a long loop (every thousand elements or so)."""
    if _limits.get().enforced and expired():
        raise timeout()


def timeout() -> OverBudget:
    """The error of a recalculation that has used its time."""
    return OverBudget(f"the recalculation took more than {_limits.get().seconds:g} s")


def text_size(n: int) -> None:
    """Text longer than Excel allows is #VALUE! (checked before building it)."""
    if n > MAX_TEXT:
        raise Raise(VALUE)


def joined(parts: Iterable[str], sep: str = "") -> str:
    """`sep.join(parts)`, #VALUE! instead when the result would pass 32,767 characters."""
    items = list(parts)
    text_size(sum(map(len, items)) + len(sep) * max(len(items) - 1, 0))
    return sep.join(items)


def refuse(over: dict[tuple[int, int, int], str], typed: Iterable[tuple[int, int, int]]) -> None:
    """`Invalid` naming the first typed cell whose formula blew the budget (the write is
    then rolled back, so no such formula is stored); nothing if none did."""
    for key in typed:
        reason = over.get(key)
        if reason is not None:
            raise Invalid(
                f"{a1(key[1], key[2])}: the formula exceeds the evaluation budget: {reason}",
                code="over_budget",
            )
