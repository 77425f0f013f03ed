"""What one evaluation of a formula leaves in its cell: the value, or the error value a
spreadsheet shows — Excel's error for a raised one, #DIV/0!, the budget's error when the
formula cost too much (`budget.OverBudget`, returned so the engine can say why), #VALUE!
for recursion, memory and (never expected) bugs, and no text past 50,000 characters, no
inf or nan."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from officegym.apps.sheets import budget
from officegym.apps.sheets.values import NUM, VALUE, Raise, Value, XlError

__all__ = ["Outcome", "outcome"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """A cell's value after one evaluation, the budget it broke (if any), and whether
    an internal error (a bug) was turned into #VALUE!."""

    value: Value
    over: budget.OverBudget | None = None
    internal: bool = False


def outcome(run: Callable[[], Value]) -> Outcome:
    """Evaluate `run` and settle what the cell shows."""
    try:
        value = run()
    except Raise as r:
        return Outcome(r.error)
    except ZeroDivisionError:
        return Outcome(XlError("#DIV/0!"))
    except budget.OverBudget as over:
        return Outcome(over.error, over)
    except (RecursionError, MemoryError):
        return Outcome(VALUE)
    except Exception:  # a bug must not break a sheet; tests assert it never happens
        return Outcome(VALUE, internal=True)
    if isinstance(value, str) and len(value) > 50_000:
        return Outcome(VALUE)
    if type(value) is float and not math.isfinite(value):
        return Outcome(NUM)
    return Outcome(value)
