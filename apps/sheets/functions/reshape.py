"""Arrays cut, stacked and reshaped: SORTN, MMULT, FLATTEN, CHOOSECOLS, CHOOSEROWS,
TOCOL, TOROW, HSTACK, VSTACK, TAKE, DROP, WRAPROWS, WRAPCOLS. A blank cell read from a
range is an empty value in the result; a gap a stack or wrap leaves is #N/A."""

from __future__ import annotations

import math
from collections.abc import Callable

from officegym.apps.sheets import budget
from officegym.apps.sheets.functions import fn, scalar
from officegym.apps.sheets.functions.arrays import _sort_key, _used
from officegym.apps.sheets.functions.lookup import _grid
from officegym.apps.sheets.runtime import Ctx
from officegym.apps.sheets.values import NA, NUM, VALUE, Raise, Value, XlError, as_bool, as_number

Array = list[list[Value]]


def _int(ctx: Ctx, v: object, default: int | None = None) -> int:
    x = scalar(v, ctx) if v is not None else None
    if x is None:
        if default is None:
            raise Raise(VALUE)
        return default
    if isinstance(x, XlError):
        raise Raise(x)
    return math.trunc(as_number(x))


def _checked(out: Array) -> Array:
    if not out or not out[0]:
        raise Raise(VALUE)
    budget.cells(len(out) * len(out[0]), "an array")
    return out


@fn("SORTN", 1, None, mode="raw")
def sortn(ctx: Ctx, arr: object, n: object = None, ties: object = None, *keys: object) -> Array:
    """SORTN(range, [n], [display_ties_mode], [sort_column, is_ascending] ...): the first
    `n` rows once sorted. Ties mode 0: n rows; 1: and rows tied with the n-th; 2: n rows
    with duplicate rows dropped; 3: rows whose sort values rank in the first n."""
    grid = [row for row in _used(arr)]
    count, mode = _int(ctx, n, 1), _int(ctx, ties, 0)
    if count < 0 or mode not in (0, 1, 2, 3):
        raise Raise(VALUE)
    pairs = range(0, len(keys), 2)
    order = [(_int(ctx, keys[i]), keys[i + 1] if i + 1 < len(keys) else None) for i in pairs]
    order = order or [(1, None)]
    for col, asc in reversed(order):
        if not grid or not 1 <= col <= len(grid[0]):
            raise Raise(VALUE)
        desc = asc is not None and not as_bool(scalar(asc, ctx))
        grid = sorted(grid, key=lambda row, c=col: _sort_key(row[c - 1]), reverse=desc)
    cols = [c - 1 for c, _ in order]
    return _checked(_first_n(grid, count, mode, lambda row: tuple(_sort_key(row[c]) for c in cols)))


def _first_n(grid: list[list[Value]], count: int, mode: int, key: Callable[..., tuple]) -> list:
    """SORTN's rows of a sorted `grid` under ties `mode` (see `sortn`)."""
    if mode in (0, 1):
        out = grid[:count]
        if mode == 1:
            out += [r for r in grid[count:] if out and key(r) == key(out[-1])]
        return out
    seen: list[tuple] = []
    out = []
    for r in grid:
        k = tuple(_sort_key(v) for v in r) if mode == 2 else key(r)
        if k not in seen and (mode == 3 or len(out) < count):
            seen.append(k)
            if mode == 2:
                out.append(r)
        if mode == 3 and len(seen) <= count:
            out.append(r)
    return out


@fn("MMULT", 2, mode="raw")
def mmult(ctx: Ctx, a: object, b: object) -> Array:
    x, y = _grid(a), _grid(b)
    if not x or not y or len(x[0]) != len(y):
        raise Raise(VALUE)
    budget.cells(len(x) * len(y[0]) * len(y), "a matrix product")
    for g in (x, y):
        for row in g:
            for v in row:
                if isinstance(v, XlError):
                    raise Raise(v)
                if not isinstance(v, float | int) or isinstance(v, bool):
                    raise Raise(VALUE)
    cols = list(zip(*y, strict=True))
    return [[math.fsum(p * q for p, q in zip(row, col, strict=True)) for col in cols] for row in x]


def _cells(arr: object) -> Array:
    return [[("" if v is None else v) for v in row] for row in _grid(arr)]


@fn("FLATTEN", 1, None, mode="raw")
def flatten(ctx: Ctx, *args: object) -> Array:
    return _checked([[v] for a in args for row in _cells(a) for v in row])


def _kept(v: Value, ignore: int) -> bool:
    blank = v == "" or v is None
    return not ((ignore in (1, 3) and blank) or (ignore in (2, 3) and isinstance(v, XlError)))


def _line(ctx: Ctx, arr: object, ignore: object, by_col: object) -> list[Value]:
    grid = _cells(arr)
    how = _int(ctx, ignore, 0)
    if how not in (0, 1, 2, 3):
        raise Raise(VALUE)
    if by_col is not None and as_bool(scalar(by_col, ctx)):
        grid = [list(c) for c in zip(*grid, strict=True)]
    return [v for row in grid for v in row if _kept(v, how)]


@fn("TOCOL", 1, 3, mode="raw")
def tocol(ctx: Ctx, arr: object, ignore: object = None, by_col: object = None) -> Array:
    return _checked([[v] for v in _line(ctx, arr, ignore, by_col)])


@fn("TOROW", 1, 3, mode="raw")
def torow(ctx: Ctx, arr: object, ignore: object = None, by_col: object = None) -> Array:
    return _checked([_line(ctx, arr, ignore, by_col)])


def _picked(ctx: Ctx, items: list, which: tuple[object, ...]) -> list:
    out = []
    for w in which:
        i = _int(ctx, w)
        if i == 0 or abs(i) > len(items):
            raise Raise(VALUE)
        out.append(items[i - 1] if i > 0 else items[i])
    return out


@fn("CHOOSECOLS", 2, None, mode="raw")
def choosecols(ctx: Ctx, arr: object, *which: object) -> Array:
    cols = [list(c) for c in zip(*_cells(arr), strict=True)]
    return _checked([list(r) for r in zip(*_picked(ctx, cols, which), strict=True)])


@fn("CHOOSEROWS", 2, None, mode="raw")
def chooserows(ctx: Ctx, arr: object, *which: object) -> Array:
    return _checked(_picked(ctx, _cells(arr), which))


@fn("HSTACK", 1, None, mode="raw")
def hstack(ctx: Ctx, *args: object) -> Array:
    grids = [_cells(a) for a in args]
    rows = max(len(g) for g in grids)
    out: Array = [[] for _ in range(rows)]
    for g in grids:
        width = len(g[0]) if g else 0
        for i in range(rows):
            out[i].extend(g[i] if i < len(g) else [NA] * width)
    return _checked(out)


@fn("VSTACK", 1, None, mode="raw")
def vstack(ctx: Ctx, *args: object) -> Array:
    grids = [_cells(a) for a in args]
    cols = max(len(g[0]) if g else 0 for g in grids)
    return _checked([row + [NA] * (cols - len(row)) for g in grids for row in g])


def _cut(ctx: Ctx, arr: object, rows: object, cols: object, take: bool) -> Array:
    grid = _cells(arr)
    for n, along_cols in ((rows, False), (cols, True)):
        if n is None or scalar(n, ctx) is None:
            continue
        k = _int(ctx, n)
        items = [list(c) for c in zip(*grid, strict=True)] if along_cols else grid
        if take:
            if k == 0:
                raise Raise(VALUE)
            items = items[:k] if k > 0 else items[k:]
        else:
            items = items[k:] if k >= 0 else items[:k]
        grid = [list(r) for r in zip(*items, strict=True)] if along_cols else items
    return _checked(grid)


@fn("TAKE", 2, 3, mode="raw")
def take(ctx: Ctx, arr: object, rows: object, cols: object = None) -> Array:
    return _cut(ctx, arr, rows, cols, True)


@fn("DROP", 2, 3, mode="raw")
def drop(ctx: Ctx, arr: object, rows: object, cols: object = None) -> Array:
    return _cut(ctx, arr, rows, cols, False)


def _wrap(ctx: Ctx, vector: object, count: object, pad: object) -> Array:
    grid = _cells(vector)
    if len(grid) != 1 and any(len(r) != 1 for r in grid):
        raise Raise(VALUE)
    items = [v for row in grid for v in row]
    k = _int(ctx, count)
    if k < 1:
        raise Raise(NUM)
    filler = scalar(pad, ctx) if pad is not None else NA
    out = [items[i : i + k] for i in range(0, len(items), k)]
    out[-1] += [filler] * (k - len(out[-1]))
    return out


@fn("WRAPROWS", 2, 3, mode="raw")
def wraprows(ctx: Ctx, vector: object, count: object, pad: object = None) -> Array:
    return _checked(_wrap(ctx, vector, count, pad))


@fn("WRAPCOLS", 2, 3, mode="raw")
def wrapcols(ctx: Ctx, vector: object, count: object, pad: object = None) -> Array:
    return _checked([list(c) for c in zip(*_wrap(ctx, vector, count, pad), strict=True)])
