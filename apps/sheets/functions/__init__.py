"""The spreadsheet functions: a registry filled by the modules of this package.

Each function is registered once with ``@fn(NAME, min_args, max_args, mode=...)``:

- ``scalar`` (default): called with plain values; a range or array given where one
  value is expected is lifted, the function applied to each element (Excel's
  dynamic arrays: ``=ROUND(A1:A3, 0)``). An error argument is the result.
- ``raw``: called with the context and the arguments as given (ranges as `Rng`,
  arrays as lists of rows, errors as values): aggregates and look-ups.
- ``lazy``: called with the context and argument thunks, evaluated on demand
  (IF, IFERROR, SWITCH ...).

Inside a function, `Raise(error)` returns that error value; ZeroDivisionError is
#DIV/0!, arithmetic overflow, math domain and decimal errors #NUM!. Work that would
blow the evaluation budget raises `budget.OverBudget` instead, which no function
catches (see `budget.py`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from officegym.apps.sheets import budget
from officegym.apps.sheets.runtime import Ctx, Rng, is_array
from officegym.apps.sheets.values import (
    DIV0,
    NUM,
    VALUE,
    Raise,
    Value,
    XlError,
    as_number,
    as_text,
)

__all__ = [
    "EVEN_CRITERIA",
    "FUNCTIONS",
    "ODD_CRITERIA",
    "Spec",
    "fn",
    "numbers",
    "scalar",
    "values_of",
]

Mode = Literal["scalar", "raw", "lazy"]
# The criteria of (range, criterion) pairs after one leading argument (SUMIFS) or none.
EVEN_CRITERIA = tuple(range(2, 60, 2))
ODD_CRITERIA = tuple(range(1, 60, 2))


@dataclass(frozen=True)
class Spec:
    name: str
    impl: Callable[..., Any]
    min_args: int
    max_args: int | None
    mode: Mode
    lift: tuple[int, ...] = ()

    def bind(self, nodes: Sequence[Callable[[Ctx], Any]]) -> Callable[[Ctx], Any]:
        """The node evaluating a call with these argument nodes."""
        impl, nodes, lift = self.impl, tuple(nodes), self.lift
        if self.mode == "lazy":
            return lambda ctx: _guard(impl, ctx, *[_thunk(n, ctx) for n in nodes])
        if self.mode == "raw" and lift:
            return lambda ctx: _raw_lifted(impl, ctx, [n(ctx) for n in nodes], lift)
        if self.mode == "raw":
            return lambda ctx: _guard(impl, ctx, *[n(ctx) for n in nodes])

        def call(ctx: Ctx) -> Any:
            args = [_as_scalar_or_array(n(ctx), ctx) for n in nodes]
            if any(is_array(a) for a in args):
                return _lift(impl, args)
            return _scalar_call(impl, args)

        return call


FUNCTIONS: dict[str, Spec] = {}


def fn(
    name: str,
    min_args: int = 0,
    max_args: int | None = -1,
    *,
    mode: Mode = "scalar",
    lift: tuple[int, ...] = (),
):
    """Register a function; `max_args` -1 means the same as `min_args`, None unlimited.
    `lift` names the arguments of a raw function that take one value (a criterion, a
    `k`): given an array or a range there, the function is applied to each element and
    answers an array, as Sheets does (``SUMIF(r,{"East","West"},s)``, ``LARGE(x,{1,2})``)."""

    def register(impl: Callable[..., Any]) -> Callable[..., Any]:
        top = min_args if max_args == -1 else max_args
        for alias in name.split("|"):
            FUNCTIONS[alias] = Spec(alias, impl, min_args, top, mode, lift)
        return impl

    return register


def _raw_lifted(impl: Callable[..., Any], ctx: Ctx, args: list[Any], lift: tuple[int, ...]) -> Any:
    """A raw call, applied element by element over the lifted arguments that are arrays
    or ranges of more than one cell."""
    spread = [
        i
        for i in lift
        if i < len(args) and (is_array(args[i]) or (isinstance(args[i], Rng) and args[i].size > 1))
    ]
    if not spread:
        return _guard(impl, ctx, *args)
    grids = {i: args[i].matrix() if isinstance(args[i], Rng) else args[i] for i in spread}
    rows = max(len(g) for g in grids.values())
    cols = max(len(g[0]) if g else 0 for g in grids.values())
    budget.cells(rows * cols, "an array of results")
    out = []
    for r in range(rows):
        budget.tick()
        row = []
        for c in range(cols):
            call = list(args)
            for i, g in grids.items():
                rr, cc = (0 if len(g) == 1 else r), (0 if g and len(g[0]) == 1 else c)
                call[i] = g[rr][cc] if rr < len(g) and cc < len(g[0]) else XlError("#N/A")
            v = _guard(impl, ctx, *call)
            row.append(v[0][0] if is_array(v) else v)
        out.append(row)
    return out


def _thunk(node: Callable[[Ctx], Any], ctx: Ctx) -> Callable[[], Any]:
    return lambda: node(ctx)


def _guard(impl: Callable[..., Any], *args: Any) -> Any:
    try:
        return impl(*args)
    except Raise as r:
        return r.error
    except ZeroDivisionError:
        return DIV0
    except (ArithmeticError, ValueError):  # overflow, math domain, decimal's errors
        return NUM


def _scalar_call(impl: Callable[..., Any], args: list[Any]) -> Any:
    for a in args:
        if isinstance(a, XlError):
            return a
    return _guard(impl, *args)


def _as_scalar_or_array(v: Any, ctx: Ctx) -> Any:
    if isinstance(v, Rng):
        return v.value_at(v.r1, v.c1) if v.size == 1 else v.matrix()
    return v


def _lift(impl: Callable[..., Any], args: list[Any]) -> list[list[Value]]:
    arrays = [a for a in args if is_array(a)]
    rows = max(len(a) for a in arrays)
    cols = max(len(a[0]) if a else 0 for a in arrays)
    budget.cells(rows * cols, "an array of results")

    def at(a: Any, i: int, j: int) -> Any:
        if not is_array(a):
            return a
        ii = 0 if len(a) == 1 else i
        jj = 0 if a and len(a[0]) == 1 else j
        return a[ii][jj] if ii < len(a) and jj < len(a[0]) else XlError("#N/A")

    out = []
    every = max(1, 1024 // max(cols, 1))  # rows between checks of the time left
    for i in range(rows):
        if i % every == 0:
            budget.tick()
        row = []
        for j in range(cols):
            v = _scalar_call(impl, [at(a, i, j) for a in args])
            row.append(v[0][0] if is_array(v) else v)
        out.append(row)
    return out


# ---------------------------------------------------------------- helpers for functions


def scalar(v: Any, ctx: Ctx | None = None) -> Value:
    """One value from an argument: a one-cell range's value; a larger range by implicit
    intersection with the formula's row or column (else #VALUE!); an array's top-left."""
    if isinstance(v, Rng):
        if v.size == 1:
            return v.value_at(v.r1, v.c1)
        if ctx is not None and v.c1 == v.c2 and v.r1 <= ctx.row <= v.r2:
            return v.value_at(ctx.row, v.c1)
        if ctx is not None and v.r1 == v.r2 and v.c1 <= ctx.col <= v.c2:
            return v.value_at(v.r1, ctx.col)
        raise Raise(VALUE)
    if is_array(v):
        return v[0][0] if v and v[0] else None
    return v


def values_of(v: Any) -> Iterator[Value]:
    """Every value of an argument, row by row (a range's non-blank cells only)."""
    if isinstance(v, Rng):
        yield from v.values()
    elif is_array(v):
        for row in v:
            yield from row
    else:
        yield v


def numbers(args: Sequence[Any], *, direct_text: bool = True) -> list[float]:
    """The numbers of aggregate arguments, as SUM reads them: in ranges and arrays only
    numbers count (text, logicals and blanks are skipped); a value given directly is
    coerced (TRUE is 1, "3" is 3); any error is raised."""
    out: list[float] = []
    for a in args:
        if isinstance(a, Rng):
            out.extend(a.numbers())
        elif is_array(a):
            for v in values_of(a):
                if isinstance(v, XlError):
                    raise Raise(v)
                if isinstance(v, float | int) and not isinstance(v, bool):
                    out.append(float(v))
        elif a is None:
            continue
        elif isinstance(a, XlError):
            raise Raise(a)
        elif isinstance(a, str) and not direct_text:
            continue
        else:
            out.append(as_number(a))
    return out


def number(v: Value) -> float:
    return as_number(v)


def text(v: Value) -> str:
    return as_text(v)


for _module in (
    "math",
    "stats",
    "logic",
    "lookup",
    "text",
    "dates",
    "arrays",
    "finance",
    "reference",
    "google",
    "loans",
    "distribution",
    "patterns",
    "reshape",
    "workweeks",
    "operators",
):
    importlib.import_module(f"{__name__}.{_module}")
