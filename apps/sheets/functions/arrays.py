"""Dynamic-array functions: UNIQUE, SORT, SORTBY, FILTER, TRANSPOSE, SEQUENCE. A cell
shows the top-left of an array; aggregates read all of it (``=COUNTA(UNIQUE(A2:A99))``)."""

from __future__ import annotations

from officegym.apps.sheets.functions import fn, scalar
from officegym.apps.sheets.functions.lookup import as_grid
from officegym.apps.sheets.runtime import Ctx, Rng
from officegym.apps.sheets.values import VALUE, Raise, Value, XlError, as_bool, as_number

Array = list[list[Value]]


def _key(row: list[Value]) -> tuple:
    return tuple((type(v).__name__, v.lower() if isinstance(v, str) else v) for v in row)


@fn("UNIQUE", 1, 3, mode="raw")
def unique(ctx: Ctx, arr: object, by_col: object = None, once: object = None) -> Array:
    grid = used_rows(arr)
    columns = by_col is not None and as_bool(scalar(by_col, ctx))
    exactly_once = once is not None and as_bool(scalar(once, ctx))
    items = [list(c) for c in zip(*grid, strict=True)] if columns else grid
    counts: dict[tuple, int] = {}
    for row in items:
        counts[_key(row)] = counts.get(_key(row), 0) + 1
    seen: set[tuple] = set()
    out = []
    for row in items:
        k = _key(row)
        if k in seen or (exactly_once and counts[k] > 1):
            continue
        seen.add(k)
        out.append(row)
    if not out:
        raise Raise(VALUE)
    return [list(c) for c in zip(*out, strict=True)] if columns else out


def used_rows(arr: object) -> Array:
    """Rows of a range up to its last non-blank row (a column A2:A1000 holding 40 values
    gives 40 rows)."""
    grid = as_grid(arr)
    if isinstance(arr, Rng):
        while grid and all(v is None for v in grid[-1]):
            grid = grid[:-1]
    return grid


def sort_key(v: Value) -> tuple:
    """Excel's sort order as a key (numbers < text, any case < logicals < errors, blanks
    last): a key sorts a column of a million values in C, a comparison function does not."""
    if v is None:
        return (1, 0, 0)
    if isinstance(v, bool):
        return (0, 2, v)
    if isinstance(v, str):
        return (0, 1, v.lower())
    if isinstance(v, XlError):
        return (0, 3, v.code)
    return (0, 0, v)


@fn("SORT", 1, 4, mode="raw")
def sort(
    ctx: Ctx, arr: object, index: object = None, order: object = None, by_col: object = None
) -> Array:
    grid = used_rows(arr)
    i = int(as_number(scalar(index, ctx))) if index is not None else 1
    way = scalar(order, ctx) if order is not None else 1.0
    desc = way is False or as_number(way) < 0  # Sheets' is_ascending FALSE, Excel's -1
    columns = by_col is not None and as_bool(scalar(by_col, ctx))
    items = [list(c) for c in zip(*grid, strict=True)] if columns else grid
    if not items or not 1 <= i <= len(items[0]):
        raise Raise(VALUE)
    out = sorted(items, key=lambda row: sort_key(row[i - 1]), reverse=desc)
    return [list(c) for c in zip(*out, strict=True)] if columns else out


@fn("SORTBY", 2, None, mode="raw")
def sortby(ctx: Ctx, arr: object, *keys: object) -> Array:
    """Rows of `arr` ordered by key columns: stable passes from the last key to the first
    give the order the keys name together."""
    grid = used_rows(arr)
    order = list(range(len(grid)))
    for j in reversed(range(0, len(keys), 2)):
        col = [row[0] for row in as_grid(keys[j])][: len(grid)]
        col += [None] * (len(grid) - len(col))
        desc = j + 1 < len(keys) and as_number(scalar(keys[j + 1], ctx)) < 0
        order.sort(key=lambda k, col=col: sort_key(col[k]), reverse=desc)
    return [grid[k] for k in order]


@fn("FILTER", 2, 3, mode="raw")
def filter_(ctx: Ctx, arr: object, include: object, empty: object = None) -> Array | Value:
    grid = as_grid(arr)
    flags = as_grid(include)
    rows = len(grid)
    if len(flags) == rows and all(len(f) == 1 for f in flags):
        keep = [_flag(f[0]) for f in flags]
        out = [row for row, k in zip(grid, keep, strict=True) if k]
    elif len(flags) == 1 and grid and len(flags[0]) == len(grid[0]):
        keep = [_flag(f) for f in flags[0]]
        out = [[v for v, k in zip(row, keep, strict=True) if k] for row in grid]
        out = out if out and out[0] else []
    else:
        raise Raise(VALUE)
    if not out:
        if empty is not None:
            return scalar(empty, ctx)
        raise Raise(XlError("#N/A"))
    return out


def _flag(v: Value) -> bool:
    if isinstance(v, XlError):
        raise Raise(v)
    return as_bool(v) if v is not None else False


@fn("TRANSPOSE", 1, mode="raw")
def transpose(ctx: Ctx, arr: object) -> Array:
    return [list(c) for c in zip(*as_grid(arr), strict=True)]


@fn("SEQUENCE", 1, 4)
def sequence(rows: Value, cols: Value = 1.0, start: Value = 1.0, step: Value = 1.0) -> Array:
    r = int(as_number(rows))
    c = int(as_number(cols)) if cols is not None else 1
    s = as_number(start) if start is not None else 1.0
    d = as_number(step) if step is not None else 1.0
    if r < 1 or c < 1 or r * c > 100_000:
        raise Raise(VALUE)
    return [[s + (i * c + j) * d for j in range(c)] for i in range(r)]
